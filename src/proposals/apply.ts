/**
 * Applying an approved proposal (the `sot` job `applyProposal`): a proposed intent becomes the
 * device's next IntentVersion (author = the proposer, linked to the proposal), then a reconcile is
 * queued; the proposal ends `applied`. An action proposal is applied by running a built-in action
 * (`reconcile`) or, for any other action, by releasing it to automation through the
 * `proposal.applied` outbound trigger. When it cannot be applied it ends `failed` with the reason.
 */
import type { Runtime } from '../runtime.js';
import type { Proposal } from '../generated/prisma/client.js';
import { writeIntentVersion } from '../devices/intent.js';
import { queueReconcile } from '../devices/reconcile.js';
import { publishDeviceChanged } from '../devices/devices.js';
import { announceProposalChange, recordProposalChange } from './proposals.js';

/** `gone`: the proposal no longer exists; `skipped`: it is not (or no longer) approved at its revision. */
export type ApplyOutcome = 'applied' | 'failed' | 'skipped' | 'gone';

/** Marks an approved proposal `failed` with the reason (no-op unless it is still approved). */
export async function failProposal(rt: Runtime, proposalId: string, reason: string): Promise<Proposal | null> {
  const result = await rt.prisma.$transaction(async (tx) => {
    const moved = await tx.proposal.updateMany({
      where: { id: proposalId, status: 'approved' },
      data: { status: 'failed', failureReason: reason.slice(0, 2000) },
    });
    if (moved.count === 0) return null;
    const p = await tx.proposal.findUniqueOrThrow({ where: { id: proposalId } });
    const rec = await recordProposalChange(tx, p, 'proposal.failed', {
      at: rt.clock.now(),
      type: 'sot.proposal_failed',
      summary: `Proposal could not be applied: ${p.title}: ${reason}`,
      severity: 'warning',
    });
    return { p, ...rec };
  });
  if (!result) return null;
  await announceProposalChange(rt, result.p, 'failed', [result.outboxId], [result.event]);
  return result.p;
}

/**
 * Applies the proposal once: it is claimed by a conditional update on (approved, approved revision),
 * so a retried job, or an approval voided by a later edit, does nothing.
 */
export async function applyProposal(rt: Runtime, proposalId: string): Promise<ApplyOutcome> {
  const p = await rt.prisma.proposal.findUnique({
    where: { id: proposalId },
    include: { device: { select: { id: true, name: true, tenantId: true } } },
  });
  if (!p) return 'gone';
  if (p.status !== 'approved' || p.approvedRevision !== p.revision) return 'skipped';
  if (!p.device) {
    await failProposal(rt, p.id, 'The target device no longer exists.');
    return 'failed';
  }
  const device = p.device;
  const done = await rt.prisma.$transaction(async (tx) => {
    const claimed = await tx.proposal.updateMany({
      where: { id: p.id, status: 'approved', revision: p.revision },
      data: { status: 'applied', appliedAt: rt.clock.now() },
    });
    if (claimed.count === 0) return null;
    const intent =
      p.proposedIntent != null
        ? await writeIntentVersion(tx, {
            tenantId: p.tenantId,
            deviceId: device.id,
            config: p.proposedIntent,
            authorId: p.proposerId,
            proposalId: p.id,
            comment: p.reason ?? p.title,
            now: rt.clock.now(),
          })
        : null;
    const applied = await tx.proposal.findUniqueOrThrow({ where: { id: p.id } });
    const rec = await recordProposalChange(tx, applied, 'proposal.applied', {
      at: rt.clock.now(),
      type: 'sot.proposal_applied',
      summary: intent
        ? `Proposal applied: ${applied.title} (intent version ${intent.intent.version})`
        : `Proposal applied: ${applied.title} (action ${applied.action})`,
    });
    return { applied, rec, intentEvent: intent?.event ?? null };
  });
  if (!done) return 'skipped';
  await announceProposalChange(
    rt,
    done.applied,
    'applied',
    [done.rec.outboxId],
    done.intentEvent ? [done.intentEvent, done.rec.event] : [done.rec.event],
  );
  if (done.intentEvent) publishDeviceChanged(rt, device, 'intent_changed');
  if (p.proposedIntent != null || p.action === 'reconcile') {
    // The proposal is applied whatever happens here; a lost reconcile is re-requested by anyone.
    await queueReconcile(rt, device.id).catch((err: Error) =>
      rt.logger.warn({ err: err.message, deviceId: device.id }, 'could not queue reconcile after apply'),
    );
  }
  return 'applied';
}

/** How long an approval may wait for its apply job before the sweeper queues it again. */
const APPLY_REDRIVE_AFTER_MS = 60_000;

/**
 * Sweeper: re-queues the apply job of proposals approved more than a minute ago and still `approved`
 * (an enqueue lost between commit and Redis, or a job whose last attempt failed before it could mark
 * the proposal). The job id is the original's, so a job still waiting or retrying is left alone; a
 * finished one (BullMQ keeps it for a while under that id) is removed first so the id is free again.
 * Applying is idempotent.
 */
export async function redriveApprovedProposals(rt: Runtime, now = rt.clock.now()): Promise<number> {
  const stale = await rt.prisma.proposal.findMany({
    where: { status: 'approved', approvedAt: { lt: new Date(now.getTime() - APPLY_REDRIVE_AFTER_MS) } },
    select: { id: true, revision: true },
    take: 500,
  });
  const queue = rt.queues.get('sot');
  for (const p of stale) {
    const jobId = `apply-${p.id}-r${p.revision}`;
    const existing = await queue.getJob(jobId);
    const state = existing ? await existing.getState() : null;
    if (state === 'failed' || state === 'completed') await existing!.remove();
    else if (state !== null && state !== 'unknown') continue; // waiting, delayed or running
    await rt.queues.add('sot', { task: 'applyProposal', proposalId: p.id }, { jobId });
  }
  return stale.length;
}
