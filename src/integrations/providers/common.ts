/**
 * Pieces shared by the Prometheus-family providers: label sets, severity mapping, fingerprints.
 */
import crypto from 'node:crypto';
import type { EventSeverity } from '../../events/envelope.js';

export const LABEL_VALUE_MAX = 500;

/** A JSON object of string values (other values dropped, long ones cut), as event labels need. */
export function stringMap(v: unknown, max = 50): Record<string, string> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>).slice(0, max)) {
    if (typeof x === 'string') out[k.slice(0, 100)] = x.slice(0, LABEL_VALUE_MAX);
  }
  return out;
}

/** `severity` label → our severity; anything unknown gets `fallback`. */
export function severityOf(labels: Record<string, string>, fallback: EventSeverity): EventSeverity {
  const s = (labels.severity ?? '').toLowerCase();
  if (['critical', 'page', 'error', 'high', 'fatal'].includes(s)) return 'critical';
  if (['warning', 'warn', 'medium'].includes(s)) return 'warning';
  if (['info', 'none', 'low'].includes(s)) return 'info';
  return fallback;
}

/** A stable key for a label set (Prometheus' own API has no fingerprint). */
export function labelsFingerprint(labels: Record<string, string>): string {
  const canonical = Object.keys(labels)
    .sort()
    .map((k) => `${k}=${labels[k]}`)
    .join('\u0000');
  return crypto.createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

/** The one line shown on the timeline for a Prometheus-style alert. */
export function alertSummary(labels: Record<string, string>, annotations: Record<string, string>): string {
  const title = annotations.summary ?? annotations.description ?? labels.alertname ?? 'alert';
  const where = labels.instance ? ` (${labels.instance})` : '';
  return `${title}${where}`.slice(0, 1000);
}

export const SEVERITY_FIELD = {
  type: 'string',
  enum: ['info', 'warning', 'critical'],
  default: 'warning',
  description: 'Severity of alerts without a recognised `severity` label.',
} as const;
