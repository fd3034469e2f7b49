/**
 * Change proposals: open, update, approve (four-eyes), deny. Applying is src/proposals/apply.ts.
 *
 * Every state change writes its outbox message (`proposal.<opened|approved|denied>`) and timeline
 * event in the same transaction as the change, dispatches the outbox after commit and publishes
 * `proposalChanged`. Moves are conditional updates on (status, revision), so two concurrent moves
 * cannot both succeed: the loser gets 409.
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import type { Runtime } from '../runtime.js';
import type { Event, Prisma, PrismaClient, Proposal } from '../generated/prisma/client.js';
import { Conflict, NotFound, invalid } from '../errors.js';
import { dispatchOutbox, writeOutbox, type OutboxTopic } from '../outbox/outbox.js';
import { insertTimelineEvent, type SotEventType } from '../devices/sot-events.js';
import { announceTimelineEvents } from '../events/announce.js';
import { assertFourEyes, assertMayEditProposal } from './policy.js';
import { assertCanMove, OPEN_PROPOSAL_STATUSES } from './states.js';
import { assertValidProposal, type ProposalFields } from './validation.js';
import { parseDurationMs } from '../duration.js';

export type ProposalChange = 'opened' | 'updated' | 'approved' | 'denied' | 'applied' | 'failed';

/** The proposal as carried by `proposalChanged` and outbox bodies. */
function proposalMessage(p: Proposal, change: ProposalChange): Record<string, unknown> {
  return {
    id: p.id,
    change,
    title: p.title,
    kind: p.kind,
    status: p.status,
    deviceId: p.deviceId,
    revision: p.revision,
    proposerId: p.proposerId,
    approverId: p.approverId,
    failureReason: p.failureReason,
  };
}

/** Outbox body in the inbound envelope shape: `{source, kind, severity, labels, payload}`. */
function outboxBody(p: Proposal, topic: OutboxTopic): Prisma.InputJsonValue {
  return {
    source: 'sot',
    kind: topic,
    severity: topic === 'proposal.failed' ? 'warning' : 'info',
    labels: { proposal_kind: p.kind, ...(p.deviceId ? { device_id: p.deviceId } : {}) },
    payload: {
      proposal: {
        id: p.id,
        title: p.title,
        kind: p.kind,
        status: p.status,
        device_id: p.deviceId,
        revision: p.revision,
        action: p.action,
        reason: p.reason,
        proposer_id: p.proposerId,
        approver_id: p.approverId,
        failure_reason: p.failureReason,
      },
    },
  };
}

type Tx = Pick<PrismaClient, 'outboxMessage' | 'event'>;

/** Inside `tx`: the outbox message and the timeline event announcing the proposal's new state. */
export async function recordProposalChange(
  tx: Tx,
  p: Proposal,
  topic: OutboxTopic,
  event: { type: SotEventType; summary: string; severity?: 'info' | 'warning'; at: Date },
): Promise<{ outboxId: string; event: Event }> {
  const outboxId = await writeOutbox(tx, {
    createdAt: event.at,
    tenantId: p.tenantId,
    topic,
    subjectId: p.id,
    body: outboxBody(p, topic),
  });
  const e = await insertTimelineEvent(tx, {
    tenantId: p.tenantId,
    type: event.type,
    summary: event.summary,
    severity: event.severity,
    receivedAt: event.at,
    deviceId: p.deviceId,
    receivedVia: 'system',
    labels: { proposal_kind: p.kind },
    payload: { proposal_id: p.id, status: p.status, revision: p.revision },
  });
  return { outboxId, event: e };
}

/** After commit: outbox fan-out, timeline announcement, `proposalChanged`. */
export async function announceProposalChange(
  rt: Runtime,
  p: Proposal,
  change: ProposalChange,
  outboxIds: string[],
  events: Event[],
): Promise<void> {
  await dispatchOutbox(rt, outboxIds);
  await announceTimelineEvents(rt, events);
  rt.pubsub.publish('proposalChanged', p.tenantId, proposalMessage(p, change));
}

/** The proposal, or NotFound (also for another tenant's). */
export async function getProposal(ctx: Ctx, id: string): Promise<Proposal> {
  const p = await ctx.db.proposal.findUnique({ where: { id } });
  if (!p) throw new NotFound('Proposal');
  return p;
}

async function assertDeviceInTenant(ctx: Ctx, deviceId: string, field: string[]): Promise<void> {
  const d = await ctx.db.device.findUnique({ where: { id: deviceId }, select: { id: true } });
  if (!d) throw invalid(field, 'names no device of your tenant');
}

/**
 * Opens a proposal (status `proposed`, revision 1) by the caller. Any user may propose, service users
 * included (automation proposes, humans approve); approval is where the four-eyes rule applies.
 */
export async function openProposal(
  ctx: Ctx,
  input: ProposalFields & { title: string; kind: string; deviceId: string },
): Promise<Proposal> {
  const me = requireUser(ctx);
  assertValidProposal(input);
  await assertDeviceInTenant(ctx, input.deviceId, ['input', 'deviceId']);
  const { proposal, outboxId, event } = await ctx.db.$transaction(async (tx) => {
    const p = await tx.proposal.create({
      data: {
        tenantId: me.tenantId,
        createdAt: ctx.rt.clock.now(), // olderThan compares it with the service clock
        title: input.title.trim(),
        kind: input.kind,
        deviceId: input.deviceId,
        proposedIntent: input.proposedIntent ?? null,
        action: input.action?.trim() || null,
        reason: input.reason ?? null,
        proposerId: me.userId,
      },
    });
    const rec = await recordProposalChange(tx, p, 'proposal.opened', {
      at: ctx.rt.clock.now(),
      type: 'sot.proposal_opened',
      summary: `Proposal opened: ${p.title}`,
    });
    return { proposal: p, ...rec };
  });
  await announceProposalChange(ctx.rt, proposal, 'opened', [outboxId], [event]);
  return proposal;
}

/**
 * Changes a proposal's content (proposer only, while `proposed` or `approved`). The revision is
 * bumped; an approval given for an earlier revision is void, so the proposal is `proposed` again.
 */
export async function updateProposal(ctx: Ctx, id: string, patch: ProposalFields): Promise<Proposal> {
  const me = requireUser(ctx);
  const p = await getProposal(ctx, id);
  assertMayEditProposal(me, p);
  assertCanMove(p.status, 'edit');
  const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as ProposalFields;
  const merged: ProposalFields = {
    title: p.title,
    kind: p.kind,
    deviceId: p.deviceId,
    proposedIntent: p.proposedIntent,
    action: p.action,
    reason: p.reason,
    ...defined,
  };
  // Switching between an intent and an action: the one not given is cleared.
  if (defined.proposedIntent != null && defined.action === undefined) merged.action = null;
  if (defined.action != null && defined.proposedIntent === undefined) merged.proposedIntent = null;
  assertValidProposal(merged);
  if (defined.deviceId && defined.deviceId !== p.deviceId)
    await assertDeviceInTenant(ctx, defined.deviceId, ['input', 'deviceId']);
  const wasApproved = p.status === 'approved';
  const result = await ctx.db.$transaction(async (tx) => {
    const moved = await tx.proposal.updateMany({
      where: { id, revision: p.revision, status: { in: [...OPEN_PROPOSAL_STATUSES] } },
      data: {
        title: merged.title!.trim(),
        kind: merged.kind!,
        deviceId: merged.deviceId!,
        proposedIntent: merged.proposedIntent ?? null,
        action: merged.action?.trim() || null,
        reason: merged.reason ?? null,
        revision: { increment: 1 },
        status: 'proposed',
        approverId: null,
        approvedAt: null,
        approvedRevision: null,
      },
    });
    if (moved.count === 0)
      throw new Conflict('The proposal changed while you were editing it; reload and retry.', 'CONCURRENT_CHANGE');
    const updated = await tx.proposal.findUniqueOrThrow({ where: { id } });
    const event = await insertTimelineEvent(tx, {
      receivedAt: ctx.rt.clock.now(),
      tenantId: updated.tenantId,
      type: 'sot.proposal_revised',
      summary: `Proposal revised to revision ${updated.revision}: ${updated.title}${wasApproved ? ' (its approval is void)' : ''}`,
      deviceId: updated.deviceId,
      receivedVia: 'system',
      labels: { proposal_kind: updated.kind },
      payload: {
        proposal_id: updated.id,
        status: updated.status,
        revision: updated.revision,
        approval_voided: wasApproved,
      },
    });
    return { updated, event };
  });
  await announceProposalChange(ctx.rt, result.updated, 'updated', [], [result.event]);
  return result.updated;
}

/**
 * Approves the proposal: four-eyes rule first (403 with the reason), then the state (409 unless
 * `proposed`; 409 when `revision` is given and no longer current). Queues the apply job after commit.
 */
export async function approveProposal(ctx: Ctx, input: { id: string; revision?: number | null }): Promise<Proposal> {
  const me = requireUser(ctx);
  const p = await getProposal(ctx, input.id);
  const approver = await ctx.db.user.findUnique({ where: { id: me.userId }, select: { credentialOrigin: true } });
  assertFourEyes(ctx.principal, p, approver?.credentialOrigin ?? null);
  assertCanMove(p.status, 'approve');
  if (input.revision != null && input.revision !== p.revision) {
    throw new Conflict(
      `The proposal is at revision ${p.revision}; you reviewed revision ${input.revision}. Review it again.`,
      'PROPOSAL_REVISION_MISMATCH',
    );
  }
  const { approved, outboxId, event } = await ctx.db.$transaction(async (tx) => {
    const moved = await tx.proposal.updateMany({
      where: { id: p.id, status: 'proposed', revision: p.revision },
      data: { status: 'approved', approverId: me.userId, approvedAt: ctx.rt.clock.now(), approvedRevision: p.revision },
    });
    if (moved.count === 0)
      throw new Conflict('The proposal changed while you were approving it; review it again.', 'CONCURRENT_CHANGE');
    const a = await tx.proposal.findUniqueOrThrow({ where: { id: p.id } });
    const rec = await recordProposalChange(tx, a, 'proposal.approved', {
      at: ctx.rt.clock.now(),
      type: 'sot.proposal_approved',
      summary: `Proposal approved by ${me.email ?? 'a user'}: ${a.title}`,
    });
    return { approved: a, ...rec };
  });
  await announceProposalChange(ctx.rt, approved, 'approved', [outboxId], [event]);
  await ctx.rt.queues.add(
    'sot',
    { task: 'applyProposal', proposalId: approved.id },
    { jobId: `apply-${approved.id}-r${approved.revision}` },
  );
  return approved;
}

/** Denies a `proposed` proposal (any user, the proposer included: withdrawing is a denial). 409 otherwise. */
export async function denyProposal(ctx: Ctx, input: { id: string; reason?: string | null }): Promise<Proposal> {
  const me = requireUser(ctx);
  const p = await getProposal(ctx, input.id);
  assertCanMove(p.status, 'deny');
  if (input.reason != null && input.reason.length > 5000)
    throw invalid(['input', 'reason'], 'must be at most 5000 characters');
  const { denied, outboxId, event } = await ctx.db.$transaction(async (tx) => {
    const moved = await tx.proposal.updateMany({
      where: { id: p.id, status: 'proposed', revision: p.revision },
      data: {
        status: 'denied',
        deniedById: me.userId,
        deniedAt: ctx.rt.clock.now(),
        denialReason: input.reason ?? null,
      },
    });
    if (moved.count === 0)
      throw new Conflict('The proposal changed while you were denying it; reload and retry.', 'CONCURRENT_CHANGE');
    const d = await tx.proposal.findUniqueOrThrow({ where: { id: p.id } });
    const rec = await recordProposalChange(tx, d, 'proposal.denied', {
      at: ctx.rt.clock.now(),
      type: 'sot.proposal_denied',
      summary: `Proposal denied by ${me.email ?? 'a user'}: ${d.title}`,
    });
    return { denied: d, ...rec };
  });
  await announceProposalChange(ctx.rt, denied, 'denied', [outboxId], [event]);
  return denied;
}

export interface ProposalFilter {
  status?: Proposal['status'] | null;
  kind?: string | null;
  deviceId?: string | null;
  /** A duration such as `24h`: only proposals created longer ago than that. */
  olderThan?: string | null;
}

/** The Prisma `where` for a proposal filter; 422 on `olderThan` when it is not a duration. */
export function proposalWhere(f: ProposalFilter, now: Date): Prisma.ProposalWhereInput {
  const where: Prisma.ProposalWhereInput = {};
  if (f.status) where.status = f.status;
  if (f.kind) where.kind = f.kind;
  if (f.deviceId) where.deviceId = f.deviceId;
  if (f.olderThan != null) {
    const ms = parseDurationMs(f.olderThan);
    if (ms === null) throw invalid(['olderThan'], 'must be a duration such as 30m, 24h or 7d');
    where.createdAt = { lt: new Date(now.getTime() - ms) };
  }
  return where;
}
