/**
 * The identity of a problem, for a match rule's default dedup key: the event type, the source and a
 * fingerprint of the identifying labels. Like Alertmanager's fingerprint, the fingerprint is a hash of
 * the sorted label set; labels that change from one occurrence of the same problem to the next
 * (`VOLATILE_LABEL_KEYS`) and the envelope directives (`event_action`, `dedup_key`) are left out, so
 * they never split one problem into several alerts. Pure functions, no I/O.
 */
import { createHash } from 'node:crypto';
import { DEDUP_KEY_LABEL, EVENT_ACTION_LABEL } from '../alerts/labels.js';

/**
 * Label keys that say something about one occurrence, not about which problem it is: measured values,
 * counters, times and request/trace ids. They stay on the event and the alert, outside the key.
 */
export const VOLATILE_LABEL_KEYS: ReadonlySet<string> = new Set([
  EVENT_ACTION_LABEL,
  DEDUP_KEY_LABEL,
  'value',
  'count',
  'timestamp',
  'time',
  'request_id',
  'trace_id',
  'span_id',
]);

/** Length of the fingerprint in hex characters (64 bits, as Alertmanager's). */
export const FINGERPRINT_LENGTH = 16;

/**
 * The fingerprint of a label set: SHA-256 over the sorted `name \xff value \xff` pairs of its string
 * labels, minus the volatile keys, cut to 16 hex characters. The empty set has a fingerprint too.
 */
export function labelFingerprint(labels: Record<string, unknown>): string {
  const h = createHash('sha256');
  for (const k of Object.keys(labels).sort()) {
    const v = labels[k];
    if (VOLATILE_LABEL_KEYS.has(k) || typeof v !== 'string') continue;
    h.update(k).update('\xff').update(v).update('\xff');
  }
  return h.digest('hex').slice(0, FINGERPRINT_LENGTH);
}

/**
 * The family of a rule's default keys for one source and label set: `<rule id>:<source>:<fingerprint>:`.
 * Every event type of that problem shares it, so a resolving event of another type (`link.up` for
 * `link.down`) finds the alerts it resolves by this prefix.
 */
export function defaultKeyFamily(ruleId: string, source: string, labels: Record<string, unknown>): string {
  return `${ruleId}:${source}:${labelFingerprint(labels)}:`;
}

/** A match rule's default dedup key: the family plus the event type. */
export function defaultDedupKey(
  ruleId: string,
  ev: { type: string; source: string; labels: Record<string, unknown> },
): string {
  return defaultKeyFamily(ruleId, ev.source, ev.labels) + ev.type;
}

/**
 * The default key of alerts opened before the key told problems apart (`<rule id>:<source>`). Such an
 * alert keeps its key while it is live: the events of its source still attach to it until it resolves.
 */
export function legacyDedupKey(ruleId: string, source: string): string {
  return `${ruleId}:${source}`;
}
