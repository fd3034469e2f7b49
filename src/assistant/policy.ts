/**
 * Who may decide the assistant's proposed actions and read its conversations. Object-level rules,
 * in one place, called by the services.
 *
 * - Approving runs a change with the approver's permissions, so it needs a person: service users
 *   (automation) get 403 whatever their role. The tool's own role rule still holds (maintenance
 *   windows are admin-only). Approving an `open_proposal` action only *opens* the proposal: its
 *   approval is a separate four-eyes step where the approver of the action is the proposer.
 * - Rejecting changes nothing, so a person may reject, and so may the user (service users too) whose
 *   triage or chat request proposed the action: automation may discard its own suggestions.
 * - An alert's conversation is shared by the tenant; a copilot conversation is its owner's alone
 *   (anyone else, admins included, gets 404: it is private, not forbidden-but-visible).
 */
import type { Principal } from '../principal.js';
import { Forbidden, NotFound } from '../errors.js';
import type { AssistantAction, AssistantConversation } from '../generated/prisma/client.js';

/** Throws 403 unless `who` may approve (and so run) the action. */
export function assertMayApprove(who: Principal, action: Pick<AssistantAction, 'tool'>): void {
  if (who.userKind !== 'human')
    throw new Forbidden('Service users cannot approve assistant actions: a person must approve what runs.');
  if (action.tool === 'create_maintenance_window' && who.role !== 'admin') {
    throw new Forbidden('Approving this action creates a maintenance window, which needs the admin role.');
  }
}

/** Throws 403 unless `who` may reject the action. */
export function assertMayReject(who: Principal, action: Pick<AssistantAction, 'requestedById'>): void {
  if (who.userKind === 'human') return;
  if (who.userId && who.userId === action.requestedById) return;
  throw new Forbidden('Only a person, or the user whose request proposed it, can reject an assistant action.');
}

/** Throws 404 unless `who` may read the conversation. */
export function assertMayReadConversation(who: Principal, conv: Pick<AssistantConversation, 'kind' | 'userId'>): void {
  if (conv.kind === 'copilot' && conv.userId !== who.userId) throw new NotFound('Conversation');
}
