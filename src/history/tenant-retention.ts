/**
 * A tenant's timeline retention: EVENT_RETENTION_DAYS for everyone, which an admin may shorten for
 * their tenant (never lengthen: partitions are shared and dropped at the installation's setting).
 * Shorter retention is applied by the retention run in bounded batches (src/history/retention.ts).
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { invalid } from '../errors.js';

export interface EventRetention {
  /** Days this tenant's events are kept. */
  days: number;
  /** The installation's setting, the longest a tenant may choose. */
  defaultDays: number;
  /** True when the tenant chose a shorter retention. */
  shortened: boolean;
}

/** The caller's tenant's event retention. */
export async function eventRetentionOf(ctx: Ctx): Promise<EventRetention> {
  const me = requireUser(ctx);
  const tenant = await ctx.rt.prisma.tenant.findUniqueOrThrow({
    where: { id: me.tenantId },
    select: { eventRetentionDays: true },
  });
  const defaultDays = ctx.rt.config.history.eventRetentionDays;
  const days = Math.min(tenant.eventRetentionDays ?? defaultDays, defaultDays);
  return { days, defaultDays, shortened: days < defaultDays };
}

/**
 * Sets the caller's tenant's event retention to `days` (1 to the installation's setting), or back to
 * the installation's setting with null. Throws a 422 naming `days` otherwise.
 */
export async function setEventRetention(ctx: Ctx, days: number | null): Promise<EventRetention> {
  const me = requireUser(ctx);
  const max = ctx.rt.config.history.eventRetentionDays;
  if (days !== null && (!Number.isInteger(days) || days < 1 || days > max)) {
    throw invalid(
      ['days'],
      `must be a whole number of days from 1 to ${max} (EVENT_RETENTION_DAYS), or null for ${max}`,
    );
  }
  await ctx.rt.prisma.tenant.update({
    where: { id: me.tenantId },
    data: { eventRetentionDays: days === max ? null : days },
  });
  return eventRetentionOf(ctx);
}
