/**
 * The REST shape of a proposal: snake_case, related users and device as ids.
 */
type Node = Record<string, any>;

export const PROPOSAL_FIELDS =
  'id title kind status proposedIntent diff action reason revision approvedAt approvedRevision deniedAt denialReason appliedAt failureReason createdAt updatedAt device { id } proposer { id } approver { id } deniedBy { id }';

export function presentProposal(p: Node): Record<string, unknown> {
  return {
    id: p.id,
    title: p.title,
    kind: p.kind,
    status: p.status,
    device_id: p.device?.id ?? null,
    proposed_intent: p.proposedIntent,
    action: p.action,
    reason: p.reason,
    diff: p.diff,
    revision: p.revision,
    proposer_id: p.proposer.id,
    approver_id: p.approver?.id ?? null,
    approved_at: p.approvedAt,
    approved_revision: p.approvedRevision,
    denied_by_id: p.deniedBy?.id ?? null,
    denied_at: p.deniedAt,
    denial_reason: p.denialReason,
    applied_at: p.appliedAt,
    failure_reason: p.failureReason,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}
