/**
 * The first attempts of one announced change, run together (one job: src/deliveries/jobs.ts). Each
 * delivery goes through the same `attemptDelivery` as a lone attempt; running them side by side is what
 * lets their loads, rate admissions and attempt records share round trips (the store's batching, Redis
 * pipelining). Deliveries the receivers' limits hold back are handed back, to wait in Redis; those of a
 * receiver this process already knows to be full are held before they are read.
 */
import type { Runtime } from '../runtime.js';
import { attemptDelivery, type AttemptDeps } from './attempt.js';

/** Deliveries attempted side by side at most; larger fan-outs go in rounds (sends are bounded by the slots anyway). */
const ROUND = 256;

export interface HeldAttempt {
  deliveryId: string;
  /** Its webhook, when known (the job named it, or the delivery was read). */
  webhookId?: string;
  retryInMs: number;
}

export interface FirstAttemptsResult {
  /** Attempts made and recorded (delivered, retrying or failed). */
  settled: number;
  /** Deliveries not to be sent (gone, already settled, recorded by someone else). */
  skipped: number;
  /** Deliveries to try again later: held back by the receiver's limits (or not due yet). */
  held: HeldAttempt[];
}

/**
 * Attempts every delivery of `deliveryIds` once (`webhookIds`: each one's webhook, same order, when the
 * job names them). Waits for all of them before it answers, even when one throws (then it rethrows the
 * first error and the job is retried: the recorded ones are skipped then), so no send of this run can
 * still be in flight when the job runs again.
 */
export async function attemptFirstDeliveries(rt: Runtime, deps: AttemptDeps, deliveryIds: readonly string[], webhookIds?: readonly string[]): Promise<FirstAttemptsResult> {
  const result: FirstAttemptsResult = { settled: 0, skipped: 0, held: [] };
  // A full receiver's deliveries wait unread: at the cap, most deliveries of a job are held many times over.
  const due: Array<{ deliveryId: string; webhookId?: string }> = [];
  deliveryIds.forEach((deliveryId, k) => {
    const webhookId = webhookIds?.length === deliveryIds.length ? webhookIds[k] : undefined;
    const wait = webhookId === undefined ? 0 : deps.limits.heldFor(webhookId);
    if (wait > 0) result.held.push({ deliveryId, webhookId, retryInMs: wait });
    else due.push({ deliveryId, webhookId });
  });
  let failure: unknown;
  for (let i = 0; i < due.length; i += ROUND) {
    const round = due.slice(i, i + ROUND);
    const outcomes = await Promise.allSettled(round.map((r) => attemptDelivery(rt, deps, r.deliveryId)));
    outcomes.forEach((o, k) => {
      if (o.status === 'rejected') {
        failure ??= o.reason;
        return;
      }
      const out = o.value;
      if (out.kind === 'delayed') result.held.push({ ...round[k], retryInMs: out.retryInMs });
      else if (out.kind === 'gone' || out.kind === 'skipped') result.skipped++;
      else result.settled++;
    });
    if (failure !== undefined) throw failure;
  }
  return result;
}
