/**
 * The body of `POST /ai-factory/gpu/samples` (what the collector sends), checked field by field:
 * `{node, samples: [{uuid, index, model?, at?, utilization?, memory_used_mib?, …}]}`. A sample
 * without `at` is stamped with the arrival time. Problems are 422s naming `body.samples[i].field`.
 */
import { ValidationFailed, type FieldProblem } from '../errors.js';
import { GPU_METRICS, GPU_METRIC_INFO, type GpuSampleInput } from './samples.js';

export const PUSH_LIMITS = {
  maxSamples: 5000,
  maxNodeLength: 200,
  maxUuidLength: 100,
  maxModelLength: 200,
  maxSkewMs: 10 * 60_000,
} as const;

const SAMPLE_KEYS = new Set([
  'uuid',
  'index',
  'model',
  'at',
  'node',
  ...GPU_METRICS.map((m) => GPU_METRIC_INFO[m].rest),
]);

/** RFC 3339 date-time, as the contract's `format: date-time` (the route skips the OpenAPI validator). */
const DATE_TIME = /^\d{4}-[01]\d-[0-3]\d[t\s](?:[0-2]\d:[0-5]\d:[0-5]\d|23:59:60)(?:\.\d+)?(?:z|[+-]\d\d(?::?\d\d)?)$/i;

function isText(v: unknown, max: number): v is string {
  return typeof v === 'string' && v.length > 0 && v.length <= max;
}

export function parseGpuPush(body: unknown, now: Date): GpuSampleInput[] {
  const problems: FieldProblem[] = [];
  const at = (loc: Array<string | number>, msg: string) => problems.push({ loc: [...loc.map(String)], msg });
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new ValidationFailed([{ loc: [], msg: 'must be a JSON object {node, samples}' }]);
  const b = body as Record<string, unknown>;
  for (const k of Object.keys(b)) if (k !== 'node' && k !== 'samples') at([k], 'is not a field of this body');
  if (b.node !== undefined && !isText(b.node, PUSH_LIMITS.maxNodeLength))
    at(['node'], `must be a string of 1 to ${PUSH_LIMITS.maxNodeLength} characters`);
  if (!Array.isArray(b.samples) || b.samples.length === 0 || b.samples.length > PUSH_LIMITS.maxSamples) {
    at(['samples'], `must be a list of 1 to ${PUSH_LIMITS.maxSamples} samples`);
    throw new ValidationFailed(problems);
  }
  const out: GpuSampleInput[] = [];
  b.samples.forEach((raw: unknown, i: number) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return at(['samples', i], 'must be an object');
    const s = raw as Record<string, unknown>;
    for (const k of Object.keys(s)) if (!SAMPLE_KEYS.has(k)) at(['samples', i, k], 'is not a field of a sample');
    const node = s.node ?? b.node;
    if (!isText(node, PUSH_LIMITS.maxNodeLength))
      at(['samples', i, 'node'], 'give `node` on the body or on the sample');
    if (!isText(s.uuid, PUSH_LIMITS.maxUuidLength))
      at(['samples', i, 'uuid'], `must be the GPU UUID (1 to ${PUSH_LIMITS.maxUuidLength} characters)`);
    if (!Number.isInteger(s.index) || (s.index as number) < 0 || (s.index as number) > 1023)
      at(['samples', i, 'index'], 'must be an integer from 0 to 1023');
    if (s.model != null && !isText(s.model, PUSH_LIMITS.maxModelLength))
      at(['samples', i, 'model'], `must be a string of up to ${PUSH_LIMITS.maxModelLength} characters`);
    let when = now;
    if (s.at !== undefined) {
      const d = typeof s.at === 'string' && s.at.length <= 40 && DATE_TIME.test(s.at) ? new Date(s.at) : new Date(NaN);
      if (Number.isNaN(d.getTime())) at(['samples', i, 'at'], 'must be an ISO-8601 time');
      else if (d.getTime() > now.getTime() + PUSH_LIMITS.maxSkewMs)
        at(['samples', i, 'at'], 'is more than 10 minutes in the future; check the clock of the sender');
      else when = d;
    }
    const sample: GpuSampleInput = {
      uuid: s.uuid as string,
      node: node as string,
      index: s.index as number,
      model: (s.model as string | undefined) ?? null,
      at: when,
    };
    for (const m of GPU_METRICS) {
      const v = s[GPU_METRIC_INFO[m].rest];
      if (v === undefined || v === null) continue;
      if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > 1e15)
        at(['samples', i, GPU_METRIC_INFO[m].rest], 'must be a finite number or null');
      else sample[m] = v;
    }
    out.push(sample);
  });
  if (problems.length) throw new ValidationFailed(problems.slice(0, 50));
  return out;
}
