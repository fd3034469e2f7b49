/**
 * Who may do what in billing: any user of the tenant reads; prices, meters, settings, budgets and
 * recomputation are for admins (the GraphQL fields carry `{ admin: true }`; services check again so a
 * direct caller cannot skip it).
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { Forbidden } from '../errors.js';

export function assertCanManageBilling(ctx: Ctx): void {
  const me = requireUser(ctx);
  if (me.role !== 'admin')
    throw new Forbidden(
      'Changing prices, meters, billing settings and budgets needs the admin role.',
      'SCOPE_ADMIN_REQUIRED',
    );
}
