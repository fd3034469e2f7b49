/**
 * The first attempts of one announced change, run together: from its fan-out (the rows it has just
 * created) or from its first-attempts job (src/deliveries/jobs.ts). Each delivery goes through the same
 * `attemptLoadedDelivery` as a lone attempt; running them side by side is what
 * lets their loads, rate admissions and attempt records share round trips (the store's batching, Redis
 * pipelining). Deliveries the receivers' limits hold back are handed back, to wait in Redis; those of a
 * receiver this process already knows to be full are held before they are read.
 */
import type { Runtime } from '../runtime.js';
import { attemptDelivery, attemptLoadedDelivery, type AttemptDeps } from './attempt.js';
import type { DeliveryWithWebhook } from './store.js';

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

/** A delivery to attempt: its id, its webhook when known, and its row when already read. */
interface Due {
  deliveryId: string;
  webhookId?: string;
  row?: DeliveryWithWebhook;
}

/**
 * Attempts every delivery of `deliveryIds` once (`webhookIds`: each one's webhook, same order, when the
 * job names them). Waits for all of them before it answers, even when one throws (then it rethrows the
 * first error and the job is retried: the recorded ones are skipped then), so no send of this run can
 * still be in flight when the job runs again.
 */
export function attemptFirstDeliveries(rt: Runtime, deps: AttemptDeps, deliveryIds: readonly string[], webhookIds?: readonly string[]): Promise<FirstAttemptsResult> {
  return attemptAll(rt, deps, deliveryIds.map((deliveryId, k) => ({ deliveryId, webhookId: webhookIds?.length === deliveryIds.length ? webhookIds[k] : undefined })));
}

/**
 * The same for deliveries the fan-out plans: their rows are known, so they are not read. `started` is
 * told once every attempt of the first round is under way or held (see `attemptLoadedDelivery`);
 * `ended`, for each delivery, once its attempt is over or held back (a record it made may still wait).
 */
export function attemptCreatedDeliveries(
  rt: Runtime,
  deps: AttemptDeps,
  rows: readonly DeliveryWithWebhook[],
  started?: () => void,
  ended?: (deliveryId: string) => void,
): Promise<FirstAttemptsResult> {
  // One round: the fan-out writes its rows once every attempt has ended (src/deliveries/first-write.ts),
  // so a second round could not start before that write; the rows are in memory already, and the send
  // slots bound the sends.
  return attemptAll(rt, deps, rows.map((row) => ({ deliveryId: row.id, webhookId: row.webhookId, row })), started, ended, Infinity);
}

async function attemptAll(
  rt: Runtime,
  deps: AttemptDeps,
  all: readonly Due[],
  started: () => void = () => undefined,
  ended: (deliveryId: string) => void = () => undefined,
  roundSize = ROUND,
): Promise<FirstAttemptsResult> {
  const result: FirstAttemptsResult = { settled: 0, skipped: 0, held: [] };
  // A full receiver's deliveries wait unread: at the cap, most deliveries of a job are held many times over.
  const due: Due[] = [];
  for (const d of all) {
    const wait = d.webhookId === undefined ? 0 : deps.limits.heldFor(d.webhookId);
    if (wait > 0) {
      result.held.push({ deliveryId: d.deliveryId, webhookId: d.webhookId, retryInMs: wait });
      ended(d.deliveryId);
    } else due.push(d);
  }
  let failure: unknown;
  let unstarted = Math.min(due.length, roundSize);
  if (unstarted === 0) started();
  const oneStarted = () => {
    if (--unstarted === 0) started();
  };
  for (let i = 0; i < due.length; i += roundSize) {
    const round = due.slice(i, i + roundSize);
    const tell = i === 0 ? oneStarted : undefined;
    const outcomes = await Promise.allSettled(
      round.map((r) => (r.row ? attemptLoadedDelivery(rt, deps, r.row, tell) : attemptDelivery(rt, deps, r.deliveryId)).finally(() => ended(r.deliveryId))),
    );
    outcomes.forEach((o, k) => {
      if (o.status === 'rejected') {
        failure ??= o.reason;
        return;
      }
      const out = o.value;
      if (out.kind === 'delayed') result.held.push({ deliveryId: round[k].deliveryId, webhookId: round[k].webhookId, retryInMs: out.retryInMs });
      else if (out.kind === 'gone' || out.kind === 'skipped') result.skipped++;
      else result.settled++;
    });
    if (failure !== undefined) throw failure;
  }
  return result;
}
