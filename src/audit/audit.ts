/**
 * The audit log: one row per mutation field executed by an authenticated caller.
 */
import type { Ctx } from '../context.js';

export interface AuditEntry {
  action: string;
  targetType?: string | null;
  targetId?: string | null;
  /** The change skipped the four-eyes review (an admin's direct intent edit). */
  bypassedReview?: boolean;
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
        bypassedReview: e.bypassedReview ?? false,
      })),
    });
  } catch (err) {
    ctx.rt.logger.error({ err, requestId: ctx.requestId }, 'audit write failed');
  }
}

interface AuditTarget {
  targetType: string;
  targetId: string;
}

const hintedTargets = new WeakMap<Ctx, Map<string, AuditTarget>>();

/**
 * Names the object a mutation field changed (by the field's response key), so its audit row points at
 * it even when the result does not show it (a minted token's id, the session a logout ended).
 */
export function setAuditTarget(ctx: Ctx, responseKey: string, targetType: string, targetId: string): void {
  let m = hintedTargets.get(ctx);
  if (!m) hintedTargets.set(ctx, (m = new Map()));
  m.set(responseKey, { targetType, targetId });
}

/** The target a resolver named for `responseKey`, if any. */
export function auditTargetOf(ctx: Ctx, responseKey: string): AuditTarget | undefined {
  return hintedTargets.get(ctx)?.get(responseKey);
}

const bypassedReviewKeys = new WeakMap<Ctx, Set<string>>();

/** Marks the mutation field's audit row (by its response key) as a change that skipped the four-eyes review. */
export function flagAuditBypassedReview(ctx: Ctx, responseKey: string): void {
  let keys = bypassedReviewKeys.get(ctx);
  if (!keys) bypassedReviewKeys.set(ctx, (keys = new Set()));
  keys.add(responseKey);
}

/** Whether a resolver flagged `responseKey` as a change that skipped review. */
export function auditBypassedReview(ctx: Ctx, responseKey: string): boolean {
  return bypassedReviewKeys.get(ctx)?.has(responseKey) ?? false;
}
