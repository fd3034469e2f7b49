/**
 * PagerDuty Events API v2 change events (https://developer.pagerduty.com/docs/events-api-v2/send-change-events/),
 * sent to `/v2/change/enqueue`: `{routing_key, payload: {summary, source?, timestamp?, custom_details?}, links?}`.
 * A change event opens no alert: it becomes a `pagerduty.changed` timeline event, which triage's default
 * change vocabulary (`*.changed`) reads as a change near the alerts it explains. `custom_details`
 * becomes labels (short one-line strings) like a trigger's; `payload.source` the `source` label.
 */
import { ValidationFailed, type FieldProblem } from '../../errors.js';
import type { Signal } from '../types.js';

const LABEL_VALUE_MAX = 200;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

function check(body: unknown): FieldProblem[] {
  if (!isObject(body)) return [{ loc: [], msg: 'must be a PagerDuty change event (a JSON object)' }];
  const p = body.payload;
  if (!isObject(p)) return [{ loc: ['payload'], msg: 'is required (summary, and optionally source, timestamp)' }];
  const problems: FieldProblem[] = [];
  if (!text(p.summary)) problems.push({ loc: ['payload', 'summary'], msg: 'is missing or blank' });
  else if ((p.summary as string).length > 1024)
    problems.push({ loc: ['payload', 'summary'], msg: 'must be at most 1024 characters' });
  if (p.timestamp !== undefined && (typeof p.timestamp !== 'string' || Number.isNaN(Date.parse(p.timestamp))))
    problems.push({ loc: ['payload', 'timestamp'], msg: 'must be an ISO 8601 date-time' });
  if (p.custom_details !== undefined && p.custom_details !== null && !isObject(p.custom_details))
    problems.push({ loc: ['payload', 'custom_details'], msg: 'must be an object' });
  if (body.links !== undefined && !Array.isArray(body.links))
    problems.push({ loc: ['links'], msg: 'must be an array' });
  return problems;
}

/** The timeline signal of a change event; throws ValidationFailed naming the body's fields. */
export function parsePagerDutyChange(body: unknown): Signal[] {
  const problems = check(body);
  if (problems.length) throw new ValidationFailed(problems);
  const { routing_key: _credential, ...stored } = body as Record<string, unknown>;
  const p = (body as { payload: Record<string, unknown> }).payload;
  const labels: Record<string, string> = {};
  if (isObject(p.custom_details)) {
    for (const [k, v] of Object.entries(p.custom_details).slice(0, 50))
      if (k && k.length <= 100 && typeof v === 'string' && v.length <= LABEL_VALUE_MAX && !v.includes('\n'))
        labels[k] = v;
  }
  const source = text(p.source);
  if (source) labels.source = source.slice(0, LABEL_VALUE_MAX);
  return [
    {
      type: 'pagerduty.changed',
      summary: String(p.summary).slice(0, 1000),
      severity: 'info',
      labels,
      payload: stored,
    },
  ];
}
