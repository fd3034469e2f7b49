/**
 * The delivery engine's in-process parts, one set per runtime: the receivers' limits (with what this
 * process knows of full receivers), the batched store, the bound on sends in flight and the announcer.
 * The fan-out (first attempts of the deliveries it has just created) and the delivery worker (every
 * other attempt) share them, so one process has one bound on sends and one view of its receivers.
 */
import type { Runtime } from '../runtime.js';
import type { AttemptDeps } from './attempt.js';
import { ReceiverLimits } from './receiver-limits.js';
import { DeliveryStore } from './store.js';
import { Semaphore } from '../semaphore.js';
import { DeliveryAnnouncer } from './announce.js';

/** Fan-outs that may be between their start and the start of their first attempts at once. */
const FAN_OUT_GATE = 8;

export interface DeliveryEngine extends AttemptDeps {
  /**
   * Paces the fan-out to the sends: a fan-out holds a place from its start until each of its first
   * attempts holds a send slot (or was held back: at once when its receiver is full for longer than a
   * wait, else once its room freed), not until the receivers answer, so a slow receiver never keeps the
   * next messages from being fanned out, and new deliveries are not created faster than they can start.
   * A message whose receivers are all known full for longer than a wait first waits, in its place, for
   * the first of them to near its room (at most a second: src/deliveries/fanout.ts, `untilRoomNears`).
   */
  fanOutGate: Semaphore;
  /**
   * How many fan-outs may wait in their gate place for their receivers' room at once: half the gate, so
   * the other half always turns over (a tenant whose receivers are all full never holds up the fan-out of
   * the messages queued behind its own; those beyond it go to a first-attempts job as before).
   */
  roomWaits: Semaphore;
}

declare module '../runtime.js' {
  interface RuntimeParts {
    deliveryEngine: DeliveryEngine;
  }
}

/** Builds the runtime's delivery engine (src/server/runtime-parts.ts). */
export function createDeliveryEngine(rt: Runtime): DeliveryEngine {
  return {
    limits: new ReceiverLimits(rt),
    store: new DeliveryStore(rt),
    slots: new Semaphore(rt.config.webhooks.concurrency),
    announcer: new DeliveryAnnouncer(rt),
    fanOutGate: new Semaphore(FAN_OUT_GATE),
    roomWaits: new Semaphore(FAN_OUT_GATE / 2),
  };
}

export function deliveryEngine(rt: Runtime): DeliveryEngine {
  return rt.parts.deliveryEngine;
}
