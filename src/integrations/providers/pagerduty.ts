/**
 * PagerDuty Events API v2 (https://developer.pagerduty.com/docs/events-api-v2/trigger-events/): any
 * tool that speaks it (Alertmanager `pagerduty_configs`, Grafana, Zabbix, Datadog, Sentry) sends to the
 * integration's push URL as if it were `https://events.pagerduty.com/v2/enqueue`, with `routing_key`
 * set to the integration's push token (an `Authorization: Bearer` header works too).
 *
 * `event_action` trigger / acknowledge / resolve acts on our alert named by `dedup_key` (a trigger
 * without one gets a new key, returned in the answer). `payload.severity` critical/error → critical,
 * warning → warning, info → info. `payload.custom_details` becomes labels (its short one-line string
 * values) and annotations (all of it); `payload.component`, `group`, `class` and `source` become labels;
 * `client_url` the `generator_url` annotation and a link mentioning a runbook the `runbook_url` one.
 * Answers as PagerDuty does: `202 {status: "success", message, dedup_key}`, and
 * `400 {status: "invalid event", message, errors}` for a body it cannot take.
 */
import crypto from 'node:crypto';
import { ValidationFailed, type FieldProblem } from '../../errors.js';
import type { EventSeverity } from '../../events/envelope.js';
import type { Provider, Signal } from '../types.js';
import { stringMap } from './common.js';

const ACTIONS = { trigger: 'firing', acknowledge: 'acknowledged', resolve: 'resolved' } as const;
type PdAction = keyof typeof ACTIONS;
const SEVERITY: Record<string, EventSeverity> = {
  critical: 'critical',
  error: 'critical',
  warning: 'warning',
  info: 'info',
};
const LABEL_VALUE_MAX = 200;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

/** Short one-line string details become labels; every detail becomes an annotation (non-strings as JSON). */
function fromDetails(details: unknown): { labels: Record<string, string>; annotations: Record<string, string> } {
  const labels: Record<string, string> = {};
  const annotations: Record<string, string> = {};
  if (!isObject(details)) return { labels, annotations };
  for (const [k, v] of Object.entries(details).slice(0, 50)) {
    if (!k || k.length > 100 || v === null || v === undefined) continue;
    const s = typeof v === 'string' ? v : JSON.stringify(v);
    annotations[k] = s.slice(0, 2000);
    if (typeof v === 'string' && v.length <= LABEL_VALUE_MAX && !v.includes('\n')) labels[k] = v;
  }
  return { labels, annotations };
}

function linkAnnotations(body: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  const clientUrl = text(body.client_url);
  if (clientUrl) out.generator_url = clientUrl.slice(0, 2000);
  if (Array.isArray(body.links)) {
    for (const l of body.links.slice(0, 20)) {
      const href = isObject(l) ? text(l.href) : undefined;
      if (!href) continue;
      if (!out.runbook_url && /runbook|playbook/i.test(`${href} ${isObject(l) ? String(l.text ?? '') : ''}`))
        out.runbook_url = href.slice(0, 2000);
      else out.link ??= href.slice(0, 2000);
    }
  }
  return out;
}

function check(body: unknown): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const bad = (field: string, msg: string) => problems.push({ loc: [...field.split('.')], msg });
  if (!isObject(body)) return [{ loc: [], msg: 'must be a PagerDuty Events API v2 event (a JSON object)' }];
  const action = body.event_action;
  if (typeof action !== 'string' || !(action in ACTIONS))
    bad('event_action', 'must be trigger, acknowledge or resolve');
  if (
    body.dedup_key !== undefined &&
    (typeof body.dedup_key !== 'string' || body.dedup_key.length === 0 || body.dedup_key.length > 255)
  )
    bad('dedup_key', 'must be a string of 1 to 255 characters');
  if ((action === 'acknowledge' || action === 'resolve') && typeof body.dedup_key !== 'string')
    bad('dedup_key', `is required for ${action}`);
  if (action === 'trigger') {
    const p = body.payload;
    if (!isObject(p)) bad('payload', 'is required for trigger (summary, source, severity)');
    else {
      if (!text(p.summary)) bad('payload.summary', 'is missing or blank');
      else if ((p.summary as string).length > 1024) bad('payload.summary', 'must be at most 1024 characters');
      if (!text(p.source)) bad('payload.source', 'is missing or blank');
      if (typeof p.severity !== 'string' || !(p.severity in SEVERITY))
        bad('payload.severity', 'must be critical, error, warning or info');
      if (p.custom_details !== undefined && p.custom_details !== null && typeof p.custom_details !== 'object')
        bad('payload.custom_details', 'must be an object');
    }
  }
  return problems;
}

export const pagerdutyProvider: Provider = {
  id: 'pagerduty',
  name: 'PagerDuty Events API v2',
  description:
    'Receives PagerDuty Events API v2 events (trigger, acknowledge, resolve) from any tool that sends to PagerDuty: set its URL to the push URL and its routing key to the push token.',
  capabilities: { push: true, pull: false, health: false },
  configSchema: { type: 'object', additionalProperties: false, properties: {} },
  pushProtocol: {
    credentialField: 'routing_key',
    accepted: (signals) => ({
      status: 202,
      body: { status: 'success', message: 'Event processed', dedup_key: signals[0]?.alert?.key ?? null },
    }),
    rejected: (problems) => ({
      status: 400,
      body: {
        status: 'invalid event',
        message: 'Event object is invalid',
        errors: problems.map((p) => `'${p.loc.join('.') || 'body'}' ${p.msg}`),
      },
    }),
  },
  parsePush(body) {
    const problems = check(body);
    if (problems.length) throw new ValidationFailed(problems);
    const b = body as Record<string, unknown>;
    const action = b.event_action as PdAction;
    const key = (b.dedup_key as string | undefined) ?? crypto.randomUUID().replace(/-/g, '');
    const p = isObject(b.payload) ? b.payload : {};
    const details = fromDetails(p.custom_details);
    const labels: Record<string, string> = { ...stringMap(details.labels) };
    for (const k of ['component', 'group', 'class', 'source'] as const) {
      const v = text(p[k]);
      if (v) labels[k] = v.slice(0, LABEL_VALUE_MAX);
    }
    const { routing_key: _credential, ...stored } = b;
    const verb = action === 'trigger' ? 'triggered' : action === 'acknowledge' ? 'acknowledged' : 'resolved';
    const signal: Signal = {
      type: `pagerduty.${verb}`,
      summary: (action === 'trigger'
        ? String(p.summary)
        : `${action === 'resolve' ? 'Resolved' : 'Acknowledged'}: ${text(p.summary) ?? key}`
      ).slice(0, 1000),
      severity: action === 'trigger' ? SEVERITY[p.severity as string]! : 'info',
      labels,
      payload: { ...stored, dedup_key: key },
      alert: { key, state: ACTIONS[action] },
      annotations: { ...details.annotations, ...linkAnnotations(b) },
    };
    return [signal];
  },
};
