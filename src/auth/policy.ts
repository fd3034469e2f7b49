/**
 * Who may do what with credentials, in one place (called by src/auth/tokens.ts, src/auth/sessions.ts
 * and the tokenChanged subscription). Role-only rules are Pothos authScopes; these depend on the object:
 * - a user manages (revokes, reactivates, rotates) and lists their own tokens; an admin also those of the
 *   service users of their tenant (SPEC, Authentication rule 5), never another person's;
 * - minting for someone else: admins only, and only for a service user (a person mints their own);
 * - only people log in with a password; service users hold PATs;
 * - a tenant that requires single sign-on refuses passwords, except from its break-glass admin.
 * Tenant scope is already applied (ctx.db), so every object here belongs to the caller's tenant.
 */
import type { Principal } from '../principal.js';
import { Forbidden } from '../errors.js';

type Caller = Pick<Principal, 'userId' | 'role'>;

/** A user as these rules see it. */
export interface UserSubject {
  id: string;
  kind: 'human' | 'service';
}

/** True when `me` acts for `user` as an admin acting for a service user of the tenant. */
function actsForServiceUser(me: Caller, user: Pick<UserSubject, 'kind'>): boolean {
  return me.role === 'admin' && user.kind === 'service';
}

/** True when `me` may see `user`'s tokens: their own, or (admins) a service user's. */
export function mayListTokensOf(me: Caller, user: UserSubject): boolean {
  return user.id === me.userId || actsForServiceUser(me, user);
}

/** True when `me` may revoke, reactivate or rotate the token; a token `me` may not manage is reported as not found. */
export function mayManageToken(me: Caller, token: { userId: string; user: Pick<UserSubject, 'kind'> }): boolean {
  return token.userId === me.userId || actsForServiceUser(me, token.user);
}

/** Minting for another user is for admins (checked before the owner is looked up). */
export function assertMayMintForOthers(me: Caller): void {
  if (me.role !== 'admin')
    throw new Forbidden('Only an admin can mint a token for another user.', 'SCOPE_ADMIN_REQUIRED');
}

/** An admin mints on behalf of a service user only; a person mints their own. */
export function assertMayMintFor(me: Caller, owner: UserSubject): void {
  assertMayMintForOthers(me);
  if (owner.id !== me.userId && !actsForServiceUser(me, owner)) {
    throw new Forbidden(
      'Admins mint tokens on behalf of service users only; a person mints their own.',
      'TOKEN_OWNER_NOT_SERVICE',
    );
  }
}

/** Whether a `tokenChanged` message concerns `me`: changes to their own tokens only. */
export function seesTokenChange(me: Caller, change: { userId?: unknown }): boolean {
  return change.userId === me.userId;
}

/** Why `user` may not log in with a password (service users hold PATs), or null when they may. */
export function passwordLoginRefusal(user: Pick<UserSubject, 'kind'>): string | null {
  return user.kind === 'human' ? null : 'Service users cannot log in with a password; use a personal access token.';
}

/**
 * A tenant that requires single sign-on refuses password sign-in for its people (403 SSO_REQUIRED), except
 * its break-glass account while that account is still an admin. Called after the password was verified, so
 * the answer tells nothing to someone who does not know it.
 */
export function assertPasswordSignInAllowed(
  user: { id: string; role: Principal['role'] },
  tenant: { ssoRequired: boolean; ssoBreakGlassUserId: string | null },
): void {
  if (!tenant.ssoRequired) return;
  if (tenant.ssoBreakGlassUserId === user.id && user.role === 'admin') return;
  throw new Forbidden(
    'Your organisation requires single sign-on: use "Sign in with …" on the sign-in page (POST /api/v1/auth/sso/providers/{provider}/start). Only its break-glass admin may sign in with a password.',
    'SSO_REQUIRED',
  );
}
