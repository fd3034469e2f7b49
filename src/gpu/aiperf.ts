/**
 * AIPerf-style load-test runs against an OpenAI-compatible endpoint (`POST …/v1/chat/completions`,
 * streaming): an admin starts a run (the endpoint URL passes the outbound-webhook SSRF guard), a
 * BullMQ job drives it in one of AIPerf's load modes — a fixed number of concurrent clients, or an
 * open-loop arrival schedule at a request rate — and records TTFT, inter-token latency, request
 * latency (p50/p90/p99/avg), output tokens/s, requests/s and errors, plus the GPUs' load over the same
 * window. The URL is checked when the run is accepted (422), again when its job starts, and at every
 * connection through the guarded DNS lookup (a name re-pointed at a private address is refused).
 * A run can be cancelled: queued runs end at once, a running job watches the flag and stops.
 * Statuses: queued → running → succeeded | failed | cancelled. The job is in aiperf-execute.ts, its
 * results and the GPUs' load in aiperf-results.ts.
 */
import type { Ctx } from '../context.js';
import type { Runtime } from '../runtime.js';
import type { AiperfRun, Prisma } from '../generated/prisma/client.js';
import { Conflict, NotFound, ValidationFailed, type FieldProblem } from '../errors.js';
import { assertDeliverableUrl, urlPolicyOf } from '../net/url-guard.js';

export type AiperfMode = 'concurrency' | 'request_rate';
export type AiperfStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export const AIPERF_LIMITS = {
  maxConcurrency: 256,
  maxRequestRate: 1000,
  maxRequestCount: 100_000,
  maxDurationS: 3600,
  maxTokens: 32_768,
  maxModelLength: 200,
  /** Each request's own deadline. */
  requestTimeoutMs: 120_000,
  /** A run with a request count (no duration) ends at this deadline whatever is left. */
  maxRunMs: 2 * 3600_000,
  /** Requests in flight at once in request-rate mode when no concurrency cap is given. */
  defaultRateInFlight: 256,
  /** How often a running job looks for a cancel request. */
  cancelPollMs: 250,
} as const;

export interface AiperfRunInput {
  endpointUrl: string;
  model: string;
  mode: AiperfMode;
  concurrency?: number | null;
  requestRate?: number | null;
  requestCount?: number | null;
  durationS?: number | null;
  inputTokens?: number | null;
  outputTokens?: number | null;
  streaming?: boolean | null;
}

/** A field's location: the GraphQL input's field (REST shows it as `body.<snake_case>`). */
const loc = (f: keyof AiperfRunInput) => ['input', f];

const isInt = (v: unknown, min: number, max: number) =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** Checks a run request; throws one 422 listing every offending field. */
export function validateAiperfInput(
  input: AiperfRunInput,
): Required<{ [K in keyof AiperfRunInput]: NonNullable<AiperfRunInput[K]> | null }> {
  const p: FieldProblem[] = [];
  const L = AIPERF_LIMITS;
  if (typeof input.model !== 'string' || input.model.trim() === '' || input.model.length > L.maxModelLength)
    p.push({ loc: loc('model'), msg: `must be 1 to ${L.maxModelLength} characters` });
  if (input.mode !== 'concurrency' && input.mode !== 'request_rate')
    p.push({ loc: loc('mode'), msg: 'must be concurrency or request_rate' });
  const concurrency = input.concurrency ?? (input.mode === 'concurrency' ? 1 : null);
  if (concurrency != null && !isInt(concurrency, 1, L.maxConcurrency))
    p.push({ loc: loc('concurrency'), msg: `must be an integer from 1 to ${L.maxConcurrency}` });
  const rate = input.requestRate ?? null;
  if (input.mode === 'request_rate' && rate == null)
    p.push({ loc: loc('requestRate'), msg: 'is required in request_rate mode (requests per second)' });
  if (rate != null && !(typeof rate === 'number' && rate > 0 && rate <= L.maxRequestRate))
    p.push({ loc: loc('requestRate'), msg: `must be more than 0 and at most ${L.maxRequestRate} requests per second` });
  if (input.mode === 'concurrency' && rate != null)
    p.push({ loc: loc('requestRate'), msg: 'applies to request_rate mode only' });
  const count = input.requestCount ?? null;
  const duration = input.durationS ?? null;
  if ((count == null) === (duration == null))
    p.push({
      loc: loc(count == null ? 'requestCount' : 'durationS'),
      msg: 'give exactly one of request_count and duration_s',
    });
  if (count != null && !isInt(count, 1, L.maxRequestCount))
    p.push({ loc: loc('requestCount'), msg: `must be an integer from 1 to ${L.maxRequestCount}` });
  if (duration != null && !isInt(duration, 1, L.maxDurationS))
    p.push({ loc: loc('durationS'), msg: `must be an integer from 1 to ${L.maxDurationS} seconds` });
  if (input.mode === 'request_rate' && rate != null && duration != null && rate * duration > L.maxRequestCount) {
    p.push({ loc: loc('durationS'), msg: `request_rate × duration_s must be at most ${L.maxRequestCount} requests` });
  }
  const inputTokens = input.inputTokens ?? 128;
  const outputTokens = input.outputTokens ?? 64;
  if (!isInt(inputTokens, 1, L.maxTokens))
    p.push({ loc: loc('inputTokens'), msg: `must be an integer from 1 to ${L.maxTokens}` });
  if (!isInt(outputTokens, 1, L.maxTokens))
    p.push({ loc: loc('outputTokens'), msg: `must be an integer from 1 to ${L.maxTokens}` });
  if (p.length) throw new ValidationFailed(p);
  return {
    endpointUrl: input.endpointUrl,
    model: input.model.trim(),
    mode: input.mode,
    concurrency,
    requestRate: rate,
    requestCount: count,
    durationS: duration,
    inputTokens,
    outputTokens,
    streaming: input.streaming ?? true,
  };
}

/** Accepts a run (202): validated, URL checked by the SSRF guard, stored `queued`, job queued. */
export async function startAiperfRun(ctx: Ctx, input: AiperfRunInput): Promise<AiperfRun> {
  const v = validateAiperfInput(input);
  await assertDeliverableUrl(String(v.endpointUrl ?? ''), urlPolicyOf(ctx.rt), loc('endpointUrl'));
  const run = await ctx.db.aiperfRun.create({
    data: {
      endpointUrl: v.endpointUrl!,
      model: v.model!,
      mode: v.mode!,
      concurrency: v.concurrency,
      requestRate: v.requestRate,
      requestCount: v.requestCount,
      durationS: v.durationS,
      inputTokens: v.inputTokens!,
      outputTokens: v.outputTokens!,
      streaming: v.streaming!,
      createdAt: ctx.rt.clock.now(), // the queued-run sweep compares it with the service clock
      requestedBy: ctx.principal?.userId ?? null,
    } as Prisma.AiperfRunUncheckedCreateInput,
  });
  await queueAiperfRun(ctx.rt, run.id);
  return run;
}

/** Queues the run's job (idempotent: the job id is the run's). One attempt: a load test is not silently repeated. */
export async function queueAiperfRun(rt: Runtime, runId: string): Promise<void> {
  await rt.queues.add('aiperf', { runId }, { jobId: `aiperf-${runId}`, attempts: 1 });
}

/** One run of the caller's tenant, or 404. */
export async function getAiperfRun(ctx: Ctx, id: string): Promise<AiperfRun> {
  const run = await ctx.db.aiperfRun.findFirst({ where: { id } });
  if (!run) throw new NotFound('AIPerf run');
  return run;
}

/** The tenant's runs, newest first. */
export async function listAiperfRuns(
  ctx: Ctx,
  opts: { status?: AiperfStatus | null; limit?: number | null } = {},
): Promise<AiperfRun[]> {
  const limit = opts.limit ?? 50;
  if (!isInt(limit, 1, 200)) throw new ValidationFailed([{ loc: ['limit'], msg: 'must be an integer from 1 to 200' }]);
  return ctx.db.aiperfRun.findMany({
    where: opts.status ? { status: opts.status } : {},
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit,
  });
}

/**
 * Cancels a run: a queued one ends `cancelled` now; a running one gets the flag its job watches (it
 * ends `cancelled` with the results of the requests that completed). A finished run is a 409.
 */
export async function cancelAiperfRun(ctx: Ctx, id: string): Promise<AiperfRun> {
  const run = await getAiperfRun(ctx, id);
  const now = ctx.rt.clock.now();
  if (run.status === 'queued') {
    const moved = await ctx.db.aiperfRun.updateMany({
      where: { id, status: 'queued' },
      data: { status: 'cancelled', cancelRequestedAt: now, finishedAt: now },
    });
    if (moved.count === 1) return getAiperfRun(ctx, id);
  }
  const flagged = await ctx.db.aiperfRun.updateMany({
    where: { id, status: 'running' },
    data: { cancelRequestedAt: now },
  });
  if (flagged.count === 1) return getAiperfRun(ctx, id);
  const current = await getAiperfRun(ctx, id);
  throw new Conflict(`The run is already ${current.status}; only a queued or running run can be cancelled.`);
}

/** Runs left `running` past any possible deadline (a worker died mid-run) end `failed`. */
export async function failStaleAiperfRuns(rt: Runtime, now = rt.clock.now()): Promise<number> {
  const cutoff = new Date(now.getTime() - AIPERF_LIMITS.maxRunMs - 10 * 60_000);
  const r = await rt.prisma.aiperfRun.updateMany({
    where: { status: 'running', startedAt: { lt: cutoff } },
    data: { status: 'failed', finishedAt: now, error: 'The run stopped reporting (its worker ended); start it again.' },
  });
  return r.count;
}

/** How long a run may stay queued before the sweeper queues its job again (an enqueue lost after commit). */
export const REDRIVE_QUEUED_AFTER_MS = 60_000;

/** Re-queues runs still `queued` a minute after they were accepted (same job id: a waiting job is left alone). */
export async function redriveQueuedAiperfRuns(rt: Runtime, now = rt.clock.now()): Promise<number> {
  const stale = await rt.prisma.aiperfRun.findMany({
    where: { status: 'queued', createdAt: { lt: new Date(now.getTime() - REDRIVE_QUEUED_AFTER_MS) } },
    select: { id: true },
    take: 500,
  });
  for (const r of stale) await queueAiperfRun(rt, r.id);
  return stale.length;
}
