/**
 * Outbound webhook triggers: which announced changes (outbox topics) a webhook receives, with filters.
 * Stored as JSON on the webhook; validated on save; matched against an outbox message at fan-out.
 *
 * What each filter looks at in the message body ({source, kind, severity, labels, payload}):
 * - `severities`: `severity` (alert and event triggers)
 * - `kinds`: the proposal kind, `payload.proposal.kind` (else `payload.kind`, label `proposal_kind`) (proposal triggers)
 * - `typeGlob`: `kind`, the event type, with the glob syntax of alert rules (`*` within a segment, `**` across) (event trigger)
 * - `labels`: every given label must be present with that value
 * - `payloadConditions`: every condition must hold on `payload` (dot paths)
 */
import { PAYLOAD_OPS, conditionHolds, labelsMatch, readPath, typeMatches } from '../events/match.js';
import { ValidationFailed, type FieldProblem } from '../errors.js';
import type { OutboxTopic } from '../outbox/outbox.js';

/** The trigger kinds offered to users, and the outbox topic each one listens to. */
export const TRIGGER_TOPICS = {
  ALERT_OPENED: 'alert.opened',
  ALERT_ACKNOWLEDGED: 'alert.acknowledged',
  ALERT_SNOOZED: 'alert.snoozed',
  ALERT_RESOLVED: 'alert.resolved',
  ALERT_REOPENED: 'alert.reopened',
  /** Handed to someone or unassigned (src/alerts/assignment.ts). */
  ALERT_ASSIGNED: 'alert.assigned',
  PROPOSAL_OPENED: 'proposal.opened',
  PROPOSAL_APPROVED: 'proposal.approved',
  PROPOSAL_DENIED: 'proposal.denied',
  PROPOSAL_APPLIED: 'proposal.applied',
  PROPOSAL_FAILED: 'proposal.failed',
  EVENT: 'event.received',
  /** A scheduled report's result (src/reports/schedules.ts); a schedule also addresses its own webhook directly. */
  REPORT_DELIVERED: 'report.delivered',
} as const satisfies Record<string, OutboxTopic>;
export type TriggerOn = keyof typeof TRIGGER_TOPICS;

export const SEVERITIES = ['info', 'warning', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];
/** The payload condition operators: the same set, with the same meaning, as alert rules. */
const CONDITION_OPS = PAYLOAD_OPS;
export type ConditionOp = (typeof CONDITION_OPS)[number];

export interface PayloadCondition {
  /** Dot path into the payload, e.g. `build.status`. */
  path: string;
  op: ConditionOp;
  value?: unknown;
}

export interface WebhookTrigger {
  on: TriggerOn;
  severities?: Severity[];
  kinds?: string[];
  typeGlob?: string;
  labels?: Record<string, string>;
  payloadConditions?: PayloadCondition[];
}

/** The inbound-shaped body of an outbox message. */
export interface AnnouncedBody {
  source?: unknown;
  kind?: unknown;
  severity?: unknown;
  labels?: unknown;
  payload?: unknown;
}

const MAX_TRIGGERS = 20;
const MAX_LIST = 50;

function family(on: TriggerOn): 'alert' | 'proposal' | 'event' | 'report' {
  if (on === 'EVENT') return 'event';
  if (on === 'REPORT_DELIVERED') return 'report';
  return on.startsWith('ALERT_') ? 'alert' : 'proposal';
}

function isStringMap(v: unknown): v is Record<string, string> {
  return !!v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
}

/**
 * Checks triggers as given by a caller and returns them normalized (empty filters dropped). Throws a 422
 * listing every offending field, e.g. a `kinds` filter on an alert trigger (alerts have no kind).
 */
export function validateTriggers(input: WebhookTrigger[], base: string[] = ['input', 'triggers']): WebhookTrigger[] {
  const problems: FieldProblem[] = [];
  if (input.length === 0) problems.push({ loc: base, msg: 'must list at least one trigger' });
  if (input.length > MAX_TRIGGERS) problems.push({ loc: base, msg: `must list at most ${MAX_TRIGGERS} triggers` });
  const out: WebhookTrigger[] = [];
  input.forEach((t, i) => {
    const loc = (f: string) => [...base, String(i), f];
    if (!(t.on in TRIGGER_TOPICS)) {
      problems.push({ loc: loc('on'), msg: `must be one of ${Object.keys(TRIGGER_TOPICS).join(', ')}` });
      return;
    }
    const fam = family(t.on);
    const norm: WebhookTrigger = { on: t.on };
    if (t.severities?.length) {
      if (fam === 'proposal')
        problems.push({ loc: loc('severities'), msg: 'proposals have no severity; filter proposals by kinds' });
      else if (fam === 'report') problems.push({ loc: loc('severities'), msg: 'report deliveries have no severity' });
      else if (t.severities.some((s) => !SEVERITIES.includes(s)))
        problems.push({ loc: loc('severities'), msg: `must be among ${SEVERITIES.join(', ')}` });
      else norm.severities = [...new Set(t.severities)];
    }
    if (t.kinds?.length) {
      if (fam !== 'proposal')
        problems.push({ loc: loc('kinds'), msg: 'only proposal triggers filter by kind (events: use typeGlob)' });
      else if (t.kinds.length > MAX_LIST || t.kinds.some((k) => typeof k !== 'string' || !k.trim() || k.length > 100))
        problems.push({
          loc: loc('kinds'),
          msg: `must be 1 to ${MAX_LIST} non-empty strings of at most 100 characters`,
        });
      else norm.kinds = [...new Set(t.kinds.map((k) => k.trim()))];
    }
    if (t.typeGlob != null && t.typeGlob !== '') {
      if (fam !== 'event') problems.push({ loc: loc('typeGlob'), msg: 'only the EVENT trigger filters by event type' });
      else if (t.typeGlob.length > 200) problems.push({ loc: loc('typeGlob'), msg: 'must be at most 200 characters' });
      else norm.typeGlob = t.typeGlob;
    }
    if (t.labels != null) {
      if (!isStringMap(t.labels) || Object.keys(t.labels).length > MAX_LIST)
        problems.push({ loc: loc('labels'), msg: `must be an object of at most ${MAX_LIST} string values` });
      else if (Object.keys(t.labels).length) norm.labels = t.labels;
    }
    if (t.payloadConditions?.length) {
      t.payloadConditions.forEach((c, j) => {
        const cl = [...base, String(i), 'payloadConditions', String(j)];
        if (typeof c.path !== 'string' || !/^[^.\s]+(\.[^.\s]+)*$/.test(c.path) || c.path.length > 200)
          problems.push({ loc: [...cl, 'path'], msg: 'must be a dot path such as build.status' });
        if (!CONDITION_OPS.includes(c.op))
          problems.push({ loc: [...cl, 'op'], msg: `must be one of ${CONDITION_OPS.join(', ')}` });
        if (c.op !== 'exists' && c.value === undefined)
          problems.push({ loc: [...cl, 'value'], msg: 'is required for this op' });
        if (c.op === 'in' && !Array.isArray(c.value))
          problems.push({ loc: [...cl, 'value'], msg: 'must be a list for op in' });
        if (['gt', 'gte', 'lt', 'lte'].includes(c.op) && typeof c.value !== 'number' && typeof c.value !== 'string')
          problems.push({ loc: [...cl, 'value'], msg: 'must be a number or string for comparisons' });
      });
      if (t.payloadConditions.length > MAX_LIST)
        problems.push({ loc: loc('payloadConditions'), msg: `must list at most ${MAX_LIST} conditions` });
      norm.payloadConditions = t.payloadConditions.map((c) => ({
        path: c.path,
        op: c.op,
        ...(c.op === 'exists' && c.value === undefined ? {} : { value: c.value }),
      }));
    }
    out.push(norm);
  });
  if (problems.length) throw new ValidationFailed(problems);
  return out;
}

/** Triggers as stored on a webhook row; unknown shapes are ignored rather than trusted. */
export function storedTriggers(json: unknown): WebhookTrigger[] {
  return Array.isArray(json)
    ? (json.filter((t) => t && typeof t === 'object' && (t as WebhookTrigger).on in TRIGGER_TOPICS) as WebhookTrigger[])
    : [];
}

/** The proposal kind of an announcement: `payload.proposal.kind`, `payload.kind` or label `proposal_kind`. */
function proposalKindOf(body: AnnouncedBody): unknown {
  for (const v of [
    readPath(body.payload, 'proposal.kind'),
    readPath(body.payload, 'kind'),
    readPath(body.labels, 'proposal_kind'),
  ])
    if (typeof v === 'string') return v;
  return undefined;
}

/** True when the message (topic + body) passes this trigger and all its filters. */
export function triggerMatches(t: WebhookTrigger, topic: string, body: AnnouncedBody): boolean {
  if (TRIGGER_TOPICS[t.on] !== topic) return false;
  if (t.severities?.length && !t.severities.includes(body.severity as Severity)) return false;
  if (t.kinds?.length && !t.kinds.includes(proposalKindOf(body) as string)) return false;
  if (t.typeGlob && !(typeof body.kind === 'string' && typeMatches(t.typeGlob, body.kind))) return false;
  if (t.labels && !labelsMatch(t.labels, (body.labels ?? {}) as Record<string, unknown>)) return false;
  if (t.payloadConditions?.length && !t.payloadConditions.every((c) => conditionHolds(body.payload, c))) return false;
  return true;
}

/** True when any of the webhook's triggers matches the message. */
export function webhookWants(triggers: WebhookTrigger[], topic: string, body: AnnouncedBody): boolean {
  return triggers.some((t) => triggerMatches(t, topic, body));
}
