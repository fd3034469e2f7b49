/**
 * The event envelope: the two body shapes of docs/spec.md "Event envelope" and how both map onto one stored
 * event. Pure functions; the REST contract (rest/openapi/events.yaml) states the same rules, and this
 * module enforces them for every caller.
 *
 * Mapping (documented in the OpenAPI fragment too):
 * - `type` (shape A) and `kind` (shape B) are the same thing: the stored `type`. Send one; both with
 *   different values is a 422.
 * - `source` is required in both shapes (absence rules track senders by it).
 * - `severity` defaults to `info`; `labels` (string → string) and `payload` (object) default to `{}`.
 *   Labels are accepted in shape A too.
 * - `summary` and `module` are accepted in shape B too. A missing summary becomes `payload.summary`
 *   when that is a string, otherwise the type.
 * - `tenant_id` is dropped: the tenant always comes from the credential.
 * - `event_action` (`trigger`, the default; `acknowledge`; `resolve`) and `dedup_key` (1 to 255
 *   characters) make the sender the owner of its alert's life (PagerDuty Events v2): they are stored
 *   as the reserved labels `event_action` / `dedup_key` (src/alerts/labels.ts), which plain labels may
 *   not use.
 * - Any other top-level field is a 422 naming it. A misspelled `severity` silently becoming `info`
 *   would hide a critical event from the rules; arbitrary content belongs in `payload` or `labels`.
 */
import { ValidationFailed, type FieldProblem } from '../errors.js';
import { DEDUP_KEY_LABEL, DEDUP_KEY_MAX, EVENT_ACTION_LABEL, EVENT_ACTIONS } from '../alerts/labels.js';

export const SEVERITIES = ['info', 'warning', 'critical'] as const;
export type EventSeverity = (typeof SEVERITIES)[number];

export const ENVELOPE_LIMITS = {
  typeLength: 200,
  sourceLength: 200,
  moduleLength: 100,
  summaryLength: 1000,
  labelCount: 50,
  labelKeyLength: 100,
  labelValueLength: 500,
} as const;

/** Where the envelope arrived: POST /events takes shape A or B, an inbound webhook takes shape B. */
export type EnvelopeEndpoint = 'events' | 'webhook';

const FIELDS: Record<EnvelopeEndpoint, ReadonlySet<string>> = {
  events: new Set([
    'type',
    'kind',
    'module',
    'source',
    'summary',
    'severity',
    'labels',
    'payload',
    'tenant_id',
    'event_action',
    'dedup_key',
  ]),
  webhook: new Set([
    'kind',
    'module',
    'source',
    'summary',
    'severity',
    'labels',
    'payload',
    'tenant_id',
    'event_action',
    'dedup_key',
  ]),
};

/** An event ready to be stored (tenant, id and arrival time are added by the ingest service). */
export interface NewEvent {
  type: string;
  module: string | null;
  source: string;
  summary: string;
  severity: EventSeverity;
  labels: Record<string, string>;
  payload: Record<string, unknown>;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Validates a request body against the envelope rules of `endpoint` and maps it to the stored event.
 * Throws ValidationFailed listing every offending field of the document (loc `[field]`, `[]` for the
 * whole document; REST shows them as fields of the request body).
 */
export function parseEnvelope(body: unknown, endpoint: EnvelopeEndpoint): NewEvent {
  const problems: FieldProblem[] = [];
  const bad = (field: string | string[], msg: string) =>
    problems.push({ loc: Array.isArray(field) ? field : [field], msg });
  if (!isPlainObject(body)) throw new ValidationFailed([{ loc: [], msg: 'must be a JSON object' }]);

  for (const key of Object.keys(body)) {
    if (!FIELDS[endpoint].has(key))
      bad(
        key,
        endpoint === 'webhook' && key === 'type'
          ? 'inbound webhooks take shape B: send "kind"'
          : 'is not a field of the event envelope (put extra content in "payload" or "labels")',
      );
  }

  const text = (field: string, max: number, required: boolean): string | null => {
    const v = body[field];
    if (v === undefined || v === null) {
      if (required) bad(field, 'is required');
      return null;
    }
    if (typeof v !== 'string') {
      bad(field, 'must be a string');
      return null;
    }
    const trimmed = v.trim();
    if (required && trimmed.length === 0) bad(field, 'must not be empty');
    else if (trimmed.length > max) bad(field, `must be at most ${max} characters`);
    return trimmed.length ? trimmed : null;
  };

  let type: string | null = null;
  const typeGiven = body.type !== undefined && body.type !== null && endpoint === 'events';
  const kindGiven = body.kind !== undefined && body.kind !== null;
  if (!typeGiven && !kindGiven)
    bad(endpoint === 'webhook' ? 'kind' : 'type', endpoint === 'webhook' ? 'is required' : 'is required (or "kind")');
  else {
    const t = typeGiven ? text('type', ENVELOPE_LIMITS.typeLength, true) : null;
    const k = kindGiven ? text('kind', ENVELOPE_LIMITS.typeLength, true) : null;
    if (typeGiven && kindGiven && t !== null && k !== null && t !== k)
      bad('kind', 'differs from "type"; they are synonyms, send one');
    type = t ?? k;
  }
  const source = text('source', ENVELOPE_LIMITS.sourceLength, true);
  const module = text('module', ENVELOPE_LIMITS.moduleLength, false);
  let summary = text('summary', ENVELOPE_LIMITS.summaryLength, false);

  let severity: EventSeverity = 'info';
  if (body.severity !== undefined && body.severity !== null) {
    if (typeof body.severity === 'string' && (SEVERITIES as readonly string[]).includes(body.severity))
      severity = body.severity as EventSeverity;
    else bad('severity', `must be one of ${SEVERITIES.join(', ')}`);
  }

  const labels: Record<string, string> = {};
  if (body.labels !== undefined && body.labels !== null) {
    if (!isPlainObject(body.labels)) bad('labels', 'must be an object of string keys to string values');
    else {
      const entries = Object.entries(body.labels);
      if (entries.length > ENVELOPE_LIMITS.labelCount)
        bad('labels', `must have at most ${ENVELOPE_LIMITS.labelCount} entries`);
      for (const [k, v] of entries) {
        if (k.length === 0 || k.length > ENVELOPE_LIMITS.labelKeyLength)
          bad(['labels', k], `keys must be 1 to ${ENVELOPE_LIMITS.labelKeyLength} characters`);
        else if (k === EVENT_ACTION_LABEL || k === DEDUP_KEY_LABEL)
          bad(['labels', k], `is reserved: send the top-level "${k}" field`);
        else if (typeof v !== 'string') bad(['labels', k], 'must be a string');
        else if (v.length > ENVELOPE_LIMITS.labelValueLength)
          bad(['labels', k], `must be at most ${ENVELOPE_LIMITS.labelValueLength} characters`);
        else labels[k] = v;
      }
    }
  }

  let payload: Record<string, unknown> = {};
  if (body.payload !== undefined && body.payload !== null) {
    if (!isPlainObject(body.payload)) bad('payload', 'must be a JSON object');
    else payload = body.payload;
  }

  const eventAction = body.event_action;
  if (eventAction !== undefined && eventAction !== null) {
    if (typeof eventAction === 'string' && (EVENT_ACTIONS as readonly string[]).includes(eventAction)) {
      if (eventAction !== 'trigger') labels[EVENT_ACTION_LABEL] = eventAction;
    } else bad('event_action', `must be one of ${EVENT_ACTIONS.join(', ')}`);
  }
  const dedupKey = text('dedup_key', DEDUP_KEY_MAX, false);
  // Without a key, an acknowledge/resolve event still acts through a rule's resolve criteria.
  if (dedupKey) labels[DEDUP_KEY_LABEL] = dedupKey;

  if (problems.length) throw new ValidationFailed(problems);
  if (!summary) {
    const fromPayload = typeof payload.summary === 'string' ? payload.summary.trim() : '';
    summary = fromPayload ? fromPayload.slice(0, ENVELOPE_LIMITS.summaryLength) : type!;
  }
  return { type: type!, module, source: source!, summary, severity, labels, payload };
}
