/**
 * Object-level rules about users: the tenant keeps an admin who is a person, so nobody (an admin
 * demoting themselves, two admins demoting each other, the CLI) can lock a tenant out of its settings.
 */
import { Conflict, Forbidden } from '../errors.js';
import type { Principal } from '../principal.js';

/**
 * Creating users and changing a user's role or password are for people, the way approvals are: a
 * service user's PAT (a script, an integration) holding the admin role must not mint accounts, demote
 * a human admin or take over a person's password. The operator CLI (credential kind `system`) is a
 * person at the installation's shell and passes.
 */
export function assertMayManagePeople(me: Pick<Principal, 'userKind' | 'credential'>): void {
  if (me.credential.kind === 'system') return;
  if (me.userKind !== 'human') {
    throw new Forbidden(
      "Only a person can create users or change a user's role or password; service users cannot.",
      'USER_MANAGEMENT_HUMAN_ONLY',
    );
  }
}

/** `remaining`: the tenant's human admins other than the one being demoted. */
export function assertKeepsAnAdmin(remaining: number, email: string): void {
  if (remaining < 1) {
    throw new Conflict(
      `${email} is the tenant's last admin who is a person; make another person admin first.`,
      'LAST_ADMIN',
    );
  }
}
