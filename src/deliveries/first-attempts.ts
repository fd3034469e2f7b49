/**
 * The first attempts of one announced change, run together: from its fan-out (the rows it has just
 * created) or from its first-attempts job (src/deliveries/jobs.ts), which may let them wait a moment in
 * this process for their receivers' room (`WaitHere`). Each delivery goes through the same
 * `attemptLoadedDelivery` as a lone attempt; running them side by side is what
 * lets their loads, rate admissions and attempt records share round trips (the store's batching, Redis
 * pipelining). Deliveries the receivers' limits hold back are handed back, to wait in Redis; those of a
 * receiver this process already knows to be full are held before they are read.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Runtime } from '../runtime.js';
import {
  attemptDelivery,
  attemptLoadedDelivery,
  attemptLoadedDeliveryIfSent,
  onceOnly,
  type AttemptDeps,
  type AttemptOutcome,
} from './attempt.js';
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
export function attemptFirstDeliveries(
  rt: Runtime,
  deps: AttemptDeps,
  deliveryIds: readonly string[],
  webhookIds?: readonly string[],
  waitHere?: WaitHere,
): Promise<FirstAttemptsResult> {
  const due = deliveryIds.map((deliveryId, k) => ({
    deliveryId,
    webhookId: webhookIds?.length === deliveryIds.length ? webhookIds[k] : undefined,
  }));
  return waitHere ? attemptWaitingHere(rt, deps, due, waitHere) : attemptAll(rt, deps, due);
}

/**
 * How long the deliveries of a first-attempts job may wait in this process for their receivers' room
 * (src: workers/deliveries.ts): each wait at most `eachMs`, all of them until `untilMs` (service clock).
 */
export interface WaitHere {
  eachMs: number;
  untilMs: number;
}

/**
 * The longest one wait here (at the cap a receiver frees room every few ms; a wait for a whole window
 * goes to Redis, where it holds no worker slot).
 */
export const WAIT_HERE_EACH_MS = 250;

/**
 * The first attempts of a job that may wait here: every row is read at once (one statement), and each
 * delivery held back by its receiver's limits waits for its own receiver's room and tries again, its row
 * in hand, as long as the waits allow; those still held are handed back (the job waits in Redis for them).
 * At the cap a receiver frees room every few ms: a job woken from Redis for each of them was woken tens
 * of ms late, and read its rows again each time.
 */
async function attemptWaitingHere(
  rt: Runtime,
  deps: AttemptDeps,
  all: readonly Due[],
  w: WaitHere,
): Promise<FirstAttemptsResult> {
  const result: FirstAttemptsResult = { settled: 0, skipped: 0, held: [] };
  const due = withoutLongHolds(deps, all, w.eachMs, result);
  const rows = await Promise.all(due.map((d) => deps.store.load(d.deliveryId)));
  const read: Due[] = [];
  due.forEach((d, k) => {
    const row = rows[k];
    if (row) read.push({ deliveryId: d.deliveryId, webhookId: d.webhookId, row });
    else result.skipped++;
  });
  const more = await attemptAll(rt, deps, read, undefined, undefined, ROUND, w);
  return {
    settled: result.settled + more.settled,
    skipped: result.skipped + more.skipped,
    held: [...result.held, ...more.held],
  };
}

/**
 * A delivery's attempt, its row in hand, waiting here for its receiver's room while `w` allows (then it
 * is handed back held). `started` is told once its request is under way or it is handed back.
 */
async function untilSentOrHeld(
  rt: Runtime,
  deps: AttemptDeps,
  row: DeliveryWithWebhook,
  w: WaitHere,
  started?: () => void,
): Promise<AttemptOutcome> {
  const tell = onceOnly(started);
  try {
    for (;;) {
      const wait = deps.limits.heldFor(row.webhookId);
      const out: AttemptOutcome =
        wait > 0
          ? { kind: 'delayed', attempt: row.attemptCount + 1, retryInMs: wait, reason: 'rate' }
          : await attemptLoadedDeliveryIfSent(rt, deps, row, tell);
      if (out.kind !== 'delayed' || out.retryInMs > w.eachMs || rt.clock.now().getTime() + out.retryInMs > w.untilMs)
        return out;
      await sleep(out.retryInMs);
    }
  } finally {
    tell();
  }
}

/**
 * The deliveries not known to be held back longer than `patienceMs`; the others go to `result.held`
 * unread (`ended` is told of each): at the cap most deliveries of a job are held many times over.
 */
function withoutLongHolds(
  deps: AttemptDeps,
  all: readonly Due[],
  patienceMs: number,
  result: FirstAttemptsResult,
  ended?: (deliveryId: string) => void,
): Due[] {
  const due: Due[] = [];
  for (const d of all) {
    const wait = d.webhookId === undefined ? 0 : deps.limits.heldFor(d.webhookId);
    if (wait > patienceMs) {
      result.held.push({ deliveryId: d.deliveryId, webhookId: d.webhookId, retryInMs: wait });
      ended?.(d.deliveryId);
    } else due.push(d);
  }
  return due;
}

/** Counts the outcomes of `due` (same order); rethrows the first failure once all are in. */
function tally(
  due: readonly Due[],
  outcomes: ReadonlyArray<PromiseSettledResult<AttemptOutcome>>,
  result: FirstAttemptsResult = { settled: 0, skipped: 0, held: [] },
): FirstAttemptsResult {
  let failure: unknown;
  outcomes.forEach((o, k) => {
    if (o.status === 'rejected') {
      failure ??= o.reason;
      return;
    }
    const out = o.value;
    if (out.kind === 'delayed')
      result.held.push({ deliveryId: due[k].deliveryId, webhookId: due[k].webhookId, retryInMs: out.retryInMs });
    else if (out.kind === 'gone' || out.kind === 'skipped') result.skipped++;
    else result.settled++;
  });
  if (failure !== undefined) throw failure;
  return result;
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
  w?: WaitHere,
): Promise<FirstAttemptsResult> {
  // One round: the fan-out writes its rows once every attempt has ended (src/deliveries/first-write.ts),
  // so a second round could not start before that write; the rows are in memory already, and the send
  // slots bound the sends.
  return attemptAll(
    rt,
    deps,
    rows.map((row) => ({ deliveryId: row.id, webhookId: row.webhookId, row })),
    started,
    ended,
    Infinity,
    w,
  );
}

async function attemptAll(
  rt: Runtime,
  deps: AttemptDeps,
  all: readonly Due[],
  started: () => void = () => undefined,
  ended: (deliveryId: string) => void = () => undefined,
  roundSize = ROUND,
  w?: WaitHere,
): Promise<FirstAttemptsResult> {
  const result: FirstAttemptsResult = { settled: 0, skipped: 0, held: [] };
  const due = withoutLongHolds(deps, all, w?.eachMs ?? 0, result, ended);
  let unstarted = Math.min(due.length, roundSize);
  if (unstarted === 0) started();
  const oneStarted = () => {
    if (--unstarted === 0) started();
  };
  for (let i = 0; i < due.length; i += roundSize) {
    const round = due.slice(i, i + roundSize);
    const tell = i === 0 ? oneStarted : undefined;
    const outcomes = await Promise.allSettled(
      round.map((r) =>
        (r.row
          ? w
            ? untilSentOrHeld(rt, deps, r.row, w, tell)
            : attemptLoadedDelivery(rt, deps, r.row, tell)
          : attemptDelivery(rt, deps, r.deliveryId)
        ).finally(() => ended(r.deliveryId)),
      ),
    );
    tally(round, outcomes, result);
  }
  return result;
}
