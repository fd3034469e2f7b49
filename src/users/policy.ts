/**
 * Object-level rules about users: the tenant keeps an admin who is a person, so nobody (an admin
 * demoting themselves, two admins demoting each other, the CLI) can lock a tenant out of its settings.
 */
import { Conflict } from '../errors.js';

/** `remaining`: the tenant's human admins other than the one being demoted. */
export function assertKeepsAnAdmin(remaining: number, email: string): void {
  if (remaining < 1) {
    throw new Conflict(`${email} is the tenant's last admin who is a person; make another person admin first.`, 'LAST_ADMIN');
  }
}
