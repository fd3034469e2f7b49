/**
 * What the signed-in user may do, with the reason shown on a disabled control. These mirror the
 * schema's role scopes (admin, human); the server still decides, and its refusal is shown as is.
 * Object rules (four-eyes, an alert's allowed actions) come from the objects themselves.
 */
import type { Me } from './session';

/** null when allowed, else the reason the control is disabled. */
export type Denial = string | null;

export const adminOnly = (me: Me): Denial => (me.role === 'ADMIN' ? null : 'Only admins can do this.');
export const humanOnly = (me: Me): Denial =>
  me.kind === 'HUMAN' ? null : 'Only people (not service users) can do this.';

/** Four-eyes, as the server applies it: a human other than the proposer. */
export function approvalDenial(me: Me, proposerId: string): Denial {
  return (
    humanOnly(me) ?? (me.id === proposerId ? 'Four-eyes rule: a second person must approve your own proposal.' : null)
  );
}
