/**
 * Prometheus Alertmanager. Push: its webhook receiver (payload `version "4"`, see
 * https://prometheus.io/docs/alerting/latest/configuration/#webhook_config), pointed at the
 * integration's push URL with `http_config.authorization.credentials` = the push token. Pull: the
 * active alerts of `GET /api/v2/alerts`. Health: `GET /-/healthy`.
 */
import { ValidationFailed, type FieldProblem } from '../../errors.js';
import type { EventSeverity } from '../../events/envelope.js';
import type { Provider, Signal } from '../types.js';
import { authHeaders, guardedGetJson, joinUrl, probeUrl } from '../../net/http.js';
import { alertSummary, labelsFingerprint, SEVERITY_FIELD, severityOf, stringMap } from './common.js';

interface AmAlert {
  status?: unknown;
  labels?: unknown;
  annotations?: unknown;
  startsAt?: unknown;
  endsAt?: unknown;
  generatorURL?: unknown;
  fingerprint?: unknown;
}

function signalOf(
  a: AmAlert,
  state: 'firing' | 'resolved',
  fallback: EventSeverity,
  extra: Record<string, unknown>,
): Signal {
  const labels = stringMap(a.labels);
  const annotations = stringMap(a.annotations);
  const fingerprint =
    typeof a.fingerprint === 'string' && a.fingerprint ? a.fingerprint.slice(0, 64) : labelsFingerprint(labels);
  return {
    type: `alertmanager.${state}`,
    summary: (state === 'resolved' ? 'Resolved: ' : '') + alertSummary(labels, annotations),
    severity: state === 'resolved' ? 'info' : severityOf(labels, fallback),
    labels,
    payload: {
      status: state,
      fingerprint,
      annotations,
      starts_at: typeof a.startsAt === 'string' ? a.startsAt : null,
      ends_at: typeof a.endsAt === 'string' ? a.endsAt : null,
      generator_url: typeof a.generatorURL === 'string' ? a.generatorURL : null,
      ...extra,
    },
    alert: { key: fingerprint, state },
  };
}

export const alertmanagerProvider: Provider = {
  id: 'alertmanager',
  name: 'Prometheus Alertmanager',
  description:
    'Receives Alertmanager webhook notifications (push) and reads its active alerts from /api/v2/alerts (pull).',
  capabilities: { push: true, pull: true, health: true },
  configSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      url: {
        type: 'string',
        format: 'uri',
        maxLength: 2048,
        description: 'Base URL of the Alertmanager (for pulls and health probes); optional for push only.',
      },
      bearer_token: {
        type: 'string',
        maxLength: 4096,
        'x-secret': true,
        'x-header': true,
        description: 'Sent as `Authorization: Bearer` on pulls and probes; visible ASCII only.',
      },
      username: { type: 'string', maxLength: 200, description: 'HTTP basic auth user for pulls and probes.' },
      password: { type: 'string', maxLength: 4096, 'x-secret': true, description: 'HTTP basic auth password.' },
      default_severity: SEVERITY_FIELD,
    },
  },
  parsePush(body, config) {
    const problems: FieldProblem[] = [];
    const b = body as Record<string, unknown>;
    if (typeof b !== 'object' || b === null || Array.isArray(b))
      throw new ValidationFailed([{ loc: [], msg: 'must be an Alertmanager webhook payload (a JSON object)' }]);
    if (b.version !== '4')
      problems.push({ loc: ['version'], msg: 'must be "4" (Alertmanager webhook payload version)' });
    if (!Array.isArray(b.alerts)) problems.push({ loc: ['alerts'], msg: 'must be an array of alerts' });
    else {
      b.alerts.forEach((a: AmAlert, i: number) => {
        if (a?.status !== 'firing' && a?.status !== 'resolved')
          problems.push({ loc: [`alerts[${i}]`, 'status'], msg: 'must be "firing" or "resolved"' });
        if (typeof a?.labels !== 'object' || a.labels === null)
          problems.push({ loc: [`alerts[${i}]`, 'labels'], msg: 'must be an object' });
      });
    }
    if (problems.length) throw new ValidationFailed(problems);
    const extra = {
      receiver: typeof b.receiver === 'string' ? b.receiver : null,
      group_key: typeof b.groupKey === 'string' ? b.groupKey : null,
      group_labels: stringMap(b.groupLabels),
      external_url: typeof b.externalURL === 'string' ? b.externalURL : null,
    };
    const fallback = (config.default_severity as EventSeverity) ?? 'warning';
    return (b.alerts as AmAlert[]).map((a) => signalOf(a, a.status as 'firing' | 'resolved', fallback, extra));
  },
  async pull(pc) {
    const url = String(pc.config.url ?? '');
    const { json } = await guardedGetJson<Array<AmAlert & { status?: { state?: string } }>>(
      joinUrl(url, '/api/v2/alerts?active=true&silenced=false&inhibited=false'),
      {
        policy: pc.policy,
        timeoutMs: pc.timeoutMs,
        headers: authHeaders(pc.config),
      },
    );
    if (!Array.isArray(json)) throw new Error('the answer of /api/v2/alerts is not a list');
    const fallback = (pc.config.default_severity as EventSeverity) ?? 'warning';
    const active = json.filter((a) => (a.status as { state?: string } | undefined)?.state === 'active');
    return {
      signals: active.map((a) => signalOf(a, 'firing', fallback, { pulled: true })),
      complete: true,
      summary: { active: active.length },
    };
  },
  probe: (pc) =>
    probeUrl(String(pc.config.url ?? ''), '/-/healthy', {
      policy: pc.policy,
      timeoutMs: pc.timeoutMs,
      headers: authHeaders(pc.config),
    }),
};
