/**
 * The audit log: one row per mutation field executed by an authenticated caller.
 */
import type { Ctx } from '../context.js';

export interface AuditEntry {
  action: string;
  targetType?: string | null;
  targetId?: string | null;
}

/** Records entries for the caller; failures are logged, never surfaced to the caller. */
export async function recordAudit(ctx: Ctx, entries: AuditEntry[]): Promise<void> {
  const p = ctx.principal;
  if (!p || entries.length === 0) return;
  try {
    await ctx.db.auditLog.createMany({
      data: entries.map((e) => ({
        tenantId: p.tenantId,
        actorId: p.userId,
        credentialKind: p.credential.kind,
        action: e.action,
        targetType: e.targetType ?? null,
        targetId: e.targetId ?? null,
      })),
    });
  } catch (err) {
    ctx.rt.logger.error({ err, requestId: ctx.requestId }, 'audit write failed');
  }
}
