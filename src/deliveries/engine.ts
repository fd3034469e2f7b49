/**
 * The delivery engine's one entry point for sending. Every attempt goes through `attempt`, whatever
 * started it; the fast paths stay behind it (docs/deliveries.md draws the states):
 * - `{ deliveryId }`: the attempt that is due for one delivery (a retry, or a lone first attempt): it is read,
 *   sent if due, and recorded once (attempt.ts);
 * - `{ deliveryIds, webhookIds?, waitHere? }`: the first attempts of one announced change, from its
 *   first-attempts job, run side by side so their reads, admissions and records share round trips; those whose
 *   receivers are full are handed back (first-attempts.ts);
 * - `{ created, started?, ended?, waitHere? }`: the same for rows the fan-out has just planned and not yet written:
 *   they are not read, and the fan-out's single write records them (fanout.ts, first-write.ts).
 */
import type { Runtime } from '../runtime.js';
import { attemptDelivery, type AttemptDeps, type AttemptOutcome } from './attempt.js';
import {
  attemptCreatedDeliveries,
  attemptFirstDeliveries,
  type FirstAttemptsResult,
  type WaitHere,
} from './first-attempts.js';
import type { DeliveryWithWebhook } from './store.js';

/** One delivery's due attempt. */
export interface DueAttempt {
  deliveryId: string;
}
/** The first attempts of one change, as its job names them. */
export interface FirstAttempts {
  deliveryIds: readonly string[];
  /** Each delivery's webhook, same order, when the job names them. */
  webhookIds?: readonly string[];
  /** How long they may wait in this process for their receivers' room. */
  waitHere?: WaitHere;
}
/** The first attempts of rows the fan-out has planned (known, not yet written). */
export interface CreatedAttempts {
  created: readonly DeliveryWithWebhook[];
  /** Told once every attempt of the first round is under way or held. */
  started?: () => void;
  /** Told for each delivery once its attempt is over or held back. */
  ended?: (deliveryId: string) => void;
  waitHere?: WaitHere;
}

export function attempt(rt: Runtime, engine: AttemptDeps, req: DueAttempt): Promise<AttemptOutcome>;
export function attempt(
  rt: Runtime,
  engine: AttemptDeps,
  req: FirstAttempts | CreatedAttempts,
): Promise<FirstAttemptsResult>;
/** Attempts what `req` names (see above); never sends a delivered or failed delivery, records each attempt once. */
export function attempt(
  rt: Runtime,
  engine: AttemptDeps,
  req: DueAttempt | FirstAttempts | CreatedAttempts,
): Promise<AttemptOutcome | FirstAttemptsResult> {
  if ('created' in req) return attemptCreatedDeliveries(rt, engine, req.created, req.started, req.ended, req.waitHere);
  if ('deliveryIds' in req) return attemptFirstDeliveries(rt, engine, req.deliveryIds, req.webhookIds, req.waitHere);
  return attemptDelivery(rt, engine, req.deliveryId);
}
