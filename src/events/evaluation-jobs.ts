/**
 * The one way to queue rule evaluation of stored events: ingest's coalesced batches, rows announced by
 * other writers, and the sweeper's re-drives all build the `evaluate` job here.
 *
 * Job ids make enqueues idempotent. A first enqueue is named after its first event
 * (`evaluate-<id>`): the same batch queued twice runs once. A re-drive is named after the whole batch
 * (`redrive-<first>-<last>-<n>`) and removed when done, so while it waits or runs the sweeper's next pass
 * adds nothing, and once it is done events still unevaluated are re-driven again. A deferral (a tenant past its
 * evaluation budget, src/rules/evaluation-budget.ts) is a job delayed until the tenant's window ends, named
 * after its events and the time it was deferred, and removed when done.
 */
import type { Runtime } from '../runtime.js';

export async function enqueueEvaluation(
  rt: Runtime,
  eventIds: readonly string[],
  opts: { redrive?: boolean; deferMs?: number; at?: number } = {},
): Promise<void> {
  if (eventIds.length === 0) return;
  const ids = [...eventIds];
  if (opts.deferMs !== undefined) {
    await rt.queues.add(
      'evaluate',
      { eventIds: ids },
      {
        jobId: `deferred-${ids[0]}-${ids.length}-${opts.at ?? rt.clock.now().getTime()}`,
        delay: opts.deferMs,
        removeOnComplete: true,
        removeOnFail: true,
      },
    );
  } else if (opts.redrive) {
    await rt.queues.add(
      'evaluate',
      { eventIds: ids },
      { jobId: `redrive-${ids[0]}-${ids[ids.length - 1]}-${ids.length}`, removeOnComplete: true, removeOnFail: true },
    );
  } else {
    await rt.queues.add('evaluate', { eventIds: ids }, { jobId: `evaluate-${ids[0]}` });
  }
}
