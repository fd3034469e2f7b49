/**
 * A generic push integration for systems that cannot sign: they POST any JSON object to the
 * integration's push URL with `Authorization: Bearer <push token>`, and configurable field paths
 * (dot paths such as `alert.title`; `items[0].name` for arrays) map it onto an event. When
 * `paths.alert_key` is set the event also opens (or, with `paths.status` equal to one of
 * `resolved_values`, resolves) an alert keyed by that value.
 */
import { ValidationFailed } from '../../errors.js';
import { SEVERITIES, type EventSeverity } from '../../events/envelope.js';
import type { Provider, Signal } from '../types.js';
import { stringMap } from './common.js';

/** The value at a dot path (`a.b[0].c`), or undefined. */
export function valueAt(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function text(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

const PATH_KEYS = ['type', 'summary', 'severity', 'source', 'labels', 'alert_key', 'status'] as const;

export const webhookProvider: Provider = {
  id: 'webhook',
  name: 'Generic webhook',
  description:
    'Any system that can POST JSON with a bearer token; field paths map its body onto an event (and optionally an alert).',
  capabilities: { push: true, pull: false, health: false },
  configSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      paths: {
        type: 'object',
        additionalProperties: { type: 'string', maxLength: 200 },
        description: `Dot paths into the body for ${PATH_KEYS.join(', ')}.`,
        default: {},
      },
      event_type: {
        type: 'string',
        maxLength: 200,
        default: 'webhook.received',
        description: 'Event type when `paths.type` is unset or missing.',
      },
      default_severity: {
        type: 'string',
        enum: ['info', 'warning', 'critical'],
        default: 'info',
        description: 'Severity when `paths.severity` is unset or not info, warning or critical.',
      },
      resolved_values: {
        type: 'string',
        maxLength: 200,
        default: 'resolved,ok,closed',
        description: 'Comma-separated values of `paths.status` that resolve the alert.',
      },
    },
  },
  parsePush(body, config) {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new ValidationFailed([{ loc: [], msg: 'must be a JSON object' }]);
    const paths = (config.paths ?? {}) as Record<string, string>;
    const at = (k: (typeof PATH_KEYS)[number]) => (paths[k] ? valueAt(body, paths[k]) : undefined);
    const type = (text(at('type')) ?? String(config.event_type ?? 'webhook.received')).slice(0, 200);
    const sev = text(at('severity'))?.toLowerCase();
    const severity: EventSeverity =
      sev && (SEVERITIES as readonly string[]).includes(sev)
        ? (sev as EventSeverity)
        : ((config.default_severity as EventSeverity) ?? 'info');
    const summary = (text(at('summary')) ?? type).slice(0, 1000);
    const labels = stringMap(at('labels'));
    const source = text(at('source'));
    if (source) labels.source = source.slice(0, 500);
    const signal: Signal = { type, summary, severity, labels, payload: body as Record<string, unknown> };
    const key = text(at('alert_key'));
    if (key) {
      const resolvedValues = String(config.resolved_values ?? '')
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean);
      const status = text(at('status'))?.toLowerCase();
      signal.alert = {
        key: key.slice(0, 200),
        state: status && resolvedValues.includes(status) ? 'resolved' : 'firing',
      };
    }
    return [signal];
  },
};
