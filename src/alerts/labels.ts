/**
 * What an alert keeps of its source: labels (string → string, from the opening event or the upstream
 * alert) and annotations (string → string notes: description, runbook_url, generator_url, …), and
 * the two envelope directives an event may carry, `event_action` and `dedup_key`.
 *
 * The directives travel in the event's labels under these two reserved keys (the Event table has no
 * columns for them), so `GET /events?label=dedup_key:…` finds every event of one upstream alert. They
 * never become alert labels.
 */
export const EVENT_ACTIONS = ['trigger', 'acknowledge', 'resolve'] as const;
export type EventAction = (typeof EVENT_ACTIONS)[number];

/** Reserved event label keys holding the envelope's `event_action` and `dedup_key`. */
export const EVENT_ACTION_LABEL = 'event_action';
export const DEDUP_KEY_LABEL = 'dedup_key';

/** Longest dedup key an event may name (PagerDuty's limit). */
export const DEDUP_KEY_MAX = 255;

/** The annotation keys read from the top level of an event's payload (besides `payload.annotations`). */
const PAYLOAD_ANNOTATION_KEYS = ['description', 'runbook_url', 'generator_url', 'dashboard_url'] as const;
const MAX_ENTRIES = 50;
const KEY_MAX = 100;
const ANNOTATION_VALUE_MAX = 2000;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The directives of a stored event: its action (default trigger) and dedup key (or null). */
export function eventDirectives(labels: unknown): { action: EventAction; dedupKey: string | null } {
  const l = isObject(labels) ? labels : {};
  const a = l[EVENT_ACTION_LABEL];
  const k = l[DEDUP_KEY_LABEL];
  return {
    action: typeof a === 'string' && (EVENT_ACTIONS as readonly string[]).includes(a) ? (a as EventAction) : 'trigger',
    dedupKey: typeof k === 'string' && k.length > 0 ? k : null,
  };
}

/** An alert's labels from its event's labels: string values only, without the reserved directive keys. */
export function alertLabelsOf(eventLabels: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObject(eventLabels)) return out;
  for (const [k, v] of Object.entries(eventLabels)) {
    if (k === EVENT_ACTION_LABEL || k === DEDUP_KEY_LABEL || typeof v !== 'string') continue;
    out[k] = v;
  }
  return out;
}

/**
 * An alert's annotations from its event's payload: the string values of `payload.annotations` (as
 * Alertmanager sends them), then `description`, `runbook_url`, `generator_url` and `dashboard_url`
 * from the payload's top level when they are strings. At most 50 entries, values cut at 2000.
 */
export function alertAnnotationsOf(payload: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObject(payload)) return out;
  const put = (k: string, v: unknown) => {
    if (
      typeof v !== 'string' ||
      v === '' ||
      k.length === 0 ||
      k.length > KEY_MAX ||
      Object.keys(out).length >= MAX_ENTRIES
    )
      return;
    out[k] = v.slice(0, ANNOTATION_VALUE_MAX);
  };
  if (isObject(payload.annotations)) for (const [k, v] of Object.entries(payload.annotations)) put(k, v);
  for (const k of PAYLOAD_ANNOTATION_KEYS) if (out[k] === undefined) put(k, payload[k]);
  return out;
}

/**
 * Checks a label filter (GraphQL `AlertFilter.labels`): an object of string keys to string values.
 * Returns the problem, or null when it is fine.
 */
export function labelFilterProblem(v: unknown): string | null {
  if (!isObject(v)) return 'must be an object of string keys to string values';
  if (Object.keys(v).length > MAX_ENTRIES) return `at most ${MAX_ENTRIES} labels`;
  if (Object.values(v).some((x) => typeof x !== 'string')) return 'values must be strings';
  return null;
}
