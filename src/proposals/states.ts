/**
 * The proposal state machine: proposed → approved → applied | failed, proposed → denied.
 * An edit of an approved proposal voids the approval (approved → proposed).
 */
import type { ProposalStatus } from '../generated/prisma/enums.js';
import { Conflict } from '../errors.js';

export type ProposalMove = 'approve' | 'deny' | 'edit' | 'apply' | 'fail';

/** Statuses each move may start from. */
const FROM: Record<ProposalMove, readonly ProposalStatus[]> = {
  approve: ['proposed'],
  deny: ['proposed'],
  edit: ['proposed', 'approved'],
  apply: ['approved'],
  fail: ['approved'],
};

/** Statuses counted as open: still waiting for a decision or for being applied. */
export const OPEN_PROPOSAL_STATUSES: readonly ProposalStatus[] = ['proposed', 'approved'];

/** True when `move` is allowed from `status`. */
export function canMove(status: ProposalStatus, move: ProposalMove): boolean {
  return FROM[move].includes(status);
}

/** Throws Conflict (409) naming the current status when `move` is not allowed from it. */
export function assertCanMove(status: ProposalStatus, move: ProposalMove): void {
  if (!canMove(status, move)) {
    throw new Conflict(
      `Cannot ${move} a proposal that is ${status} (allowed from: ${FROM[move].join(', ')}).`,
      'PROPOSAL_INVALID_TRANSITION',
    );
  }
}
