/**
 * Prometheus server. Pull: firing alerts of `GET /api/v1/alerts` (pending ones are not alerts yet)
 * and target health of `GET /api/v1/targets` (a down target is an alert of its own, keyed by its scrape
 * URL). Health: `GET /-/healthy`. No push: Prometheus notifies through an Alertmanager.
 */
import type { EventSeverity } from '../../events/envelope.js';
import type { Provider, Signal } from '../types.js';
import { authHeaders, guardedGetJson, joinUrl, probeUrl } from '../../net/http.js';
import { alertSummary, labelsFingerprint, SEVERITY_FIELD, severityOf, stringMap } from './common.js';

interface PromAlert {
  labels?: unknown;
  annotations?: unknown;
  state?: string;
  activeAt?: string;
  value?: string;
}
interface PromTarget {
  health?: string;
  scrapeUrl?: string;
  lastError?: string;
  labels?: unknown;
  scrapePool?: string;
}

export const prometheusProvider: Provider = {
  id: 'prometheus',
  name: 'Prometheus',
  description:
    'Reads firing alerts (/api/v1/alerts) and target health (/api/v1/targets) of a Prometheus server on demand.',
  capabilities: { push: false, pull: true, health: true },
  configSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['url'],
    properties: {
      url: { type: 'string', format: 'uri', maxLength: 2048, description: 'Base URL of the Prometheus server.' },
      bearer_token: {
        type: 'string',
        maxLength: 4096,
        'x-secret': true,
        'x-header': true,
        description: 'Sent as `Authorization: Bearer`; visible ASCII only.',
      },
      username: { type: 'string', maxLength: 200, description: 'HTTP basic auth user.' },
      password: { type: 'string', maxLength: 4096, 'x-secret': true, description: 'HTTP basic auth password.' },
      default_severity: SEVERITY_FIELD,
      targets: {
        type: 'boolean',
        default: true,
        description: 'Also read target health; a down target opens an alert until it is up again.',
      },
    },
  },
  async pull(pc) {
    const base = String(pc.config.url ?? '');
    const opts = { policy: pc.policy, timeoutMs: pc.timeoutMs, headers: authHeaders(pc.config) };
    const fallback = (pc.config.default_severity as EventSeverity) ?? 'warning';
    const { json: alerts } = await guardedGetJson<{ status?: string; data?: { alerts?: PromAlert[] } }>(
      joinUrl(base, '/api/v1/alerts'),
      opts,
    );
    if (alerts.status !== 'success' || !Array.isArray(alerts.data?.alerts))
      throw new Error('the answer of /api/v1/alerts is not a Prometheus success response');
    const signals: Signal[] = [];
    const firing = alerts.data.alerts.filter((a) => a.state === 'firing');
    for (const a of firing) {
      const labels = stringMap(a.labels);
      const annotations = stringMap(a.annotations);
      signals.push({
        type: 'prometheus.firing',
        summary: alertSummary(labels, annotations),
        severity: severityOf(labels, fallback),
        labels,
        payload: { status: 'firing', annotations, active_at: a.activeAt ?? null, value: a.value ?? null },
        alert: { key: `alert:${labelsFingerprint(labels)}`, state: 'firing' },
      });
    }
    const summary: Record<string, number> = { firing: firing.length };
    if (pc.config.targets !== false) {
      const { json: targets } = await guardedGetJson<{ status?: string; data?: { activeTargets?: PromTarget[] } }>(
        joinUrl(base, '/api/v1/targets?state=active'),
        opts,
      );
      const list = Array.isArray(targets.data?.activeTargets) ? targets.data.activeTargets : [];
      summary.targets_up = list.filter((t) => t.health === 'up').length;
      summary.targets_down = list.filter((t) => t.health === 'down').length;
      for (const t of list.filter((x) => x.health === 'down')) {
        const labels = stringMap(t.labels);
        signals.push({
          type: 'prometheus.target_down',
          summary: `Target down: ${t.scrapeUrl ?? labels.instance ?? 'unknown'}`.slice(0, 1000),
          severity: 'warning',
          labels,
          payload: {
            scrape_url: t.scrapeUrl ?? null,
            scrape_pool: t.scrapePool ?? null,
            last_error: t.lastError ?? null,
          },
          alert: { key: `target:${labelsFingerprint({ url: t.scrapeUrl ?? '' })}`, state: 'firing' },
        });
      }
    }
    return { signals, complete: true, summary };
  },
  probe: (pc) =>
    probeUrl(String(pc.config.url ?? ''), '/-/healthy', {
      policy: pc.policy,
      timeoutMs: pc.timeoutMs,
      headers: authHeaders(pc.config),
    }),
};
