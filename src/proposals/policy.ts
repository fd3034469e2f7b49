/**
 * Who may do what to a proposal, in one place (called by src/proposals/proposals.ts):
 * - anyone with a user credential may open one (automation proposes, humans approve) and deny one
 *   (the proposer included: withdrawing is a denial);
 * - only the proposer may change it;
 * - the four-eyes rule: a proposal is approved by a human user who is not its proposer. "Not the
 *   proposer" is about the person, not the credential: another PAT or session of the proposer is still
 *   the proposer (SPEC, Authentication rule 4).
 */
import type { Principal } from '../principal.js';
import { Forbidden } from '../errors.js';

export interface ProposalAuthorship {
  proposerId: string;
}

/** Why `approver` may not approve the proposal, or null when the four-eyes rule is met. */
export function fourEyesViolation(approver: Principal | null, proposal: ProposalAuthorship): string | null {
  if (!approver?.userId)
    return 'Approval needs a signed-in user (PAT or session); ingest keys and webhooks cannot approve.';
  if (approver.userKind !== 'human') {
    return 'Service users cannot approve proposals: the four-eyes rule needs a second human.';
  }
  if (approver.userId === proposal.proposerId) {
    return approver.credential.kind === 'pat'
      ? 'You opened this proposal: another of your personal access tokens does not count as a second person. A different human must approve it (four-eyes rule).'
      : 'You opened this proposal: a different human must approve it (four-eyes rule).';
  }
  return null;
}

/** Throws Forbidden, with the reason, unless `approver` satisfies the four-eyes rule for the proposal. */
export function assertFourEyes(approver: Principal | null, proposal: ProposalAuthorship): void {
  const why = fourEyesViolation(approver, proposal);
  if (why) throw new Forbidden(why, 'PROPOSAL_SELF_APPROVAL');
}

/** True when `editor` may change the proposal's content: its proposer, and nobody else (admins included). */
export function mayEditProposal(editor: Pick<Principal, 'userId'>, proposal: ProposalAuthorship): boolean {
  return editor.userId !== null && editor.userId === proposal.proposerId;
}

/** Throws Forbidden unless `editor` is the proposer. */
export function assertMayEditProposal(editor: Pick<Principal, 'userId'>, proposal: ProposalAuthorship): void {
  if (!mayEditProposal(editor, proposal))
    throw new Forbidden('Only the proposer can change a proposal; open a new one instead.', 'PROPOSAL_NOT_PROPOSER');
}
