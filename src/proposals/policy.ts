/**
 * Who may do what to a proposal, in one place (called by src/proposals/proposals.ts):
 * - anyone with a user credential may open one (automation proposes, humans approve) and deny one
 *   (the proposer included: withdrawing is a denial);
 * - only the proposer may change it;
 * - the four-eyes rule: a proposal is approved by a human user who is not its proposer. "Not the
 *   proposer" is about the person, not the credential: another PAT or session of the proposer is still
 *   the proposer (SPEC, Authentication rule 4). The approver must also have signed in with a credential
 *   of their own: a password they chose through an invitation or reset link sent to their email, or SSO
 *   (`User.credentialOrigin`). A password an admin or the operator set (`admin_set`, and `legacy`: every
 *   password from before origins were recorded was set that way) does not count, so an admin cannot
 *   create a sock-puppet user, sign in as them and approve their own change.
 */
import type { Principal } from '../principal.js';
import { Forbidden } from '../errors.js';
import type { CredentialOrigin } from '../generated/prisma/client.js';

/** Credential origins that prove the person, not an admin, holds the credential. */
const OWN_CREDENTIALS: ReadonlySet<CredentialOrigin> = new Set(['invited_password', 'self_password', 'sso']);

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

/** Why a person whose credential came from `origin` may not approve, or null when it is their own. */
export function approverCredentialViolation(origin: CredentialOrigin | null): string | null {
  if (!origin || !OWN_CREDENTIALS.has(origin)) {
    return 'Your password was set by an administrator or the operator, not by you, so your approval would not be a second person\'s (four-eyes rule). Set your own password with "Forgot password?" on the sign-in page (a link to your email), or sign in with single sign-on, then approve.';
  }
  return null;
}

/**
 * Throws Forbidden, with the reason, unless `approver` satisfies the four-eyes rule for the proposal and
 * holds a credential of their own (`approverOrigin`: their User.credentialOrigin).
 */
export function assertFourEyes(
  approver: Principal | null,
  proposal: ProposalAuthorship,
  approverOrigin: CredentialOrigin | null,
): void {
  const why = fourEyesViolation(approver, proposal);
  if (why) throw new Forbidden(why, 'PROPOSAL_SELF_APPROVAL');
  const notOwn = approverCredentialViolation(approverOrigin);
  if (notOwn) throw new Forbidden(notOwn, 'APPROVER_CREDENTIAL_NOT_OWN');
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
