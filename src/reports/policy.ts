/**
 * Who may do what with saved reports, dashboards and schedules. Any user may query, export and create
 * saved reports and dashboards; changing or deleting one is for its owner or an admin; schedules are
 * for admins (also declared as the `admin` scope on their GraphQL fields).
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { Forbidden } from '../errors.js';

export interface Owned {
  ownerId: string;
}

/** True when the caller may change or delete the object. */
export function canEdit(ctx: Ctx, obj: Owned): boolean {
  const me = requireUser(ctx);
  return me.role === 'admin' || me.userId === obj.ownerId;
}

/** Throws 403 unless the caller owns the object or is an admin. */
export function assertCanEdit(ctx: Ctx, obj: Owned, what: string): void {
  if (!canEdit(ctx, obj)) throw new Forbidden(`Only the owner of this ${what} or an admin may change or delete it.`);
}

/** Throws 403 unless the caller is an admin: schedules send data out of the service. */
export function assertCanManageSchedules(ctx: Ctx): void {
  if (requireUser(ctx).role !== 'admin') throw new Forbidden('Report schedules are for admins.');
}
