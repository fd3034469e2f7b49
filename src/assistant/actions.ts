/**
 * Proposed actions: stored as `proposed`, run only when a person approves, with exactly the recorded
 * args (hash checked) and the approver's permissions, through the services that own the change
 * (alerts, devices, proposals, maintenance windows). Deciding twice, or deciding an expired or stale
 * action, is a 409.
 */
import type { Ctx } from '../context.js';
import type { Runtime } from '../runtime.js';
import { requireUser } from '../context.js';
import { Conflict, DomainError, NotFound, invalid } from '../errors.js';
import type { Alert, AssistantAction, Prisma } from '../generated/prisma/client.js';
import { acknowledgeAlert, loadAlert, resolveAlert, snoozeAlert } from '../alerts/actions.js';
import { requestReconcile } from '../devices/reconcile.js';
import { openProposal } from '../proposals/proposals.js';
import { createMaintenanceWindow } from '../routing/maintenance-window-store.js';
import { parseDurationSeconds } from '../duration.js';
import { constantTimeEqual } from '../secrets.js';
import { argsHash, canonicalJson } from './action-args.js';
import { assertMayApprove, assertMayReject } from './policy.js';
import type { ActionDraft, ActionTool } from './types.js';

/** Tools whose meaning depends on the alert's state: any change of it makes them stale. */
const ALERT_STATE_TOOLS: readonly string[] = ['acknowledge_alert', 'snooze_alert', 'resolve_alert'];

/**
 * Stores validated drafts as `proposed` actions of their alerts (duplicates by tool and args
 * dropped). Runs inside the caller's transaction.
 */
export async function storeProposedActions(
  tx: Prisma.TransactionClient,
  ctx: Ctx,
  drafts: ActionDraft[],
  alertsById: Map<string, Alert>,
  link: { triageId?: string; conversationId?: string },
): Promise<AssistantAction[]> {
  const me = requireUser(ctx);
  const seen = new Set<string>();
  const out: AssistantAction[] = [];
  const expiresAt = new Date(ctx.rt.clock.now().getTime() + ctx.rt.config.assistant.actionTtlSeconds * 1000);
  for (const d of drafts) {
    const alert = alertsById.get(d.alertId!);
    if (!alert) continue;
    const hash = argsHash(d.tool, d.args);
    if (seen.has(`${alert.id}:${hash}`)) continue;
    seen.add(`${alert.id}:${hash}`);
    out.push(
      await tx.assistantAction.create({
        data: {
          tenantId: me.tenantId,
          alertId: alert.id,
          triageId: link.triageId ?? null,
          conversationId: link.conversationId ?? null,
          tool: d.tool,
          args: JSON.parse(canonicalJson(d.args)) as Prisma.InputJsonValue,
          argsHash: hash,
          rationale: d.rationale,
          risk: d.risk,
          alertStatus: alert.status,
          requestedById: me.userId,
          expiresAt,
        },
      }),
    );
  }
  return out;
}

/** An action of the alert, in the caller's tenant, or 404. */
export async function loadAction(ctx: Ctx, alertId: string, actionId: string): Promise<AssistantAction> {
  const a = await ctx.db.assistantAction.findUnique({ where: { id: actionId } });
  if (!a || a.alertId !== alertId) throw new NotFound('Assistant action');
  return a;
}

/** Why the action can no longer run as proposed, or null. */
export function staleReason(action: AssistantAction, alert: Alert, now: Date): string | null {
  if (action.expiresAt.getTime() <= now.getTime())
    return `The action expired at ${action.expiresAt.toISOString()}; triage the alert again for fresh proposals.`;
  if (ALERT_STATE_TOOLS.includes(action.tool) && alert.status !== action.alertStatus) {
    return `The alert was ${action.alertStatus} when this was proposed and is ${alert.status} now; the action is stale.`;
  }
  if (alert.status === 'resolved' && action.alertStatus !== 'resolved')
    return 'The alert has been resolved since this was proposed; the action is stale.';
  return null;
}

/**
 * The periodic sweep: proposed actions whose time has passed are marked `expired` with the same reason a
 * late decision gets, so lists show what can still be decided without anyone having to try. Set-based,
 * across tenants (each row keeps its own); an action decided meanwhile is left alone (`status` guard).
 */
export async function expireOverdueActions(rt: Runtime, now = rt.clock.now()): Promise<{ expired: number }> {
  const expired = await rt.prisma.$executeRaw`
    UPDATE "AssistantAction"
    SET status = 'expired',
        result = jsonb_build_object('reason', 'The action expired at ' || to_char("expiresAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '; triage the alert again for fresh proposals.')
    WHERE status = 'proposed' AND "expiresAt" <= ${now.toISOString()}::timestamp`;
  return { expired };
}

async function settle(
  ctx: Ctx,
  id: string,
  from: AssistantAction['status'],
  data: Prisma.AssistantActionUncheckedUpdateManyInput,
): Promise<boolean> {
  const r = await ctx.db.assistantAction.updateMany({ where: { id, status: from }, data });
  return r.count === 1;
}

/** 409 unless the action is still `proposed`, current and intact; expired/stale ones are marked so. */
async function assertDecidable(
  ctx: Ctx,
  action: AssistantAction,
  reviewedHash?: string | null,
  checkArgs = true,
): Promise<Alert> {
  if (action.status !== 'proposed')
    throw new Conflict(`The action is already ${action.status}; it cannot be decided again.`);
  const alert = await loadAlert(ctx, action.alertId);
  const stale = staleReason(action, alert, ctx.rt.clock.now());
  if (stale) {
    await settle(ctx, action.id, 'proposed', { status: 'expired', result: { reason: stale } });
    throw new Conflict(stale);
  }
  if (!checkArgs) return alert;
  if (!constantTimeEqual(argsHash(action.tool, action.args as Record<string, unknown>), action.argsHash)) {
    throw new Conflict('The recorded args no longer match their hash; the action will not run.');
  }
  if (reviewedHash != null && !constantTimeEqual(reviewedHash, action.argsHash)) {
    throw new Conflict('The args you reviewed (args_hash) are not the recorded ones; reload the action.');
  }
  return alert;
}

/** Runs the action's tool with `ctx` (the approver). Returns what it did, for `result`. */
async function execute(ctx: Ctx, action: AssistantAction): Promise<Record<string, unknown>> {
  const args = action.args as Record<string, string>;
  switch (action.tool as ActionTool) {
    case 'acknowledge_alert': {
      const a = await acknowledgeAlert(ctx, { id: action.alertId });
      return { alert_id: a.id, alert_status: a.status };
    }
    case 'snooze_alert': {
      const a = await snoozeAlert(ctx, { id: action.alertId, duration: args.duration });
      return { alert_id: a.id, alert_status: a.status, snoozed_until: a.snoozedUntil?.toISOString() ?? null };
    }
    case 'resolve_alert': {
      const a = await resolveAlert(ctx, { id: action.alertId });
      return { alert_id: a.id, alert_status: a.status };
    }
    case 'reconcile_device': {
      const q = await requestReconcile(ctx, args.device_id!);
      return { device_id: q.deviceId, reconcile_queued_at: q.queuedAt.toISOString() };
    }
    case 'open_proposal': {
      const p = await openProposal(ctx, {
        deviceId: args.device_id!,
        title: args.title!,
        kind: args.kind!,
        action: args.action ?? null,
        proposedIntent: args.proposed_intent ?? null,
        reason: args.reason ?? null,
      });
      return {
        proposal_id: p.id,
        proposal_status: p.status,
        note: 'The proposal needs a second person to approve it (four-eyes rule).',
      };
    }
    case 'create_maintenance_window': {
      const seconds = parseDurationSeconds(args.duration!)!;
      const now = ctx.rt.clock.now();
      const w = await createMaintenanceWindow(ctx, {
        name: args.name!,
        startsAt: now,
        endsAt: new Date(now.getTime() + seconds * 1000),
        source: args.source ?? null,
        deviceId: args.device_id ?? null,
      });
      return { maintenance_window_id: w.id, ends_at: w.endsAt.toISOString() };
    }
    default:
      throw new Conflict(`Unknown tool ${action.tool}.`);
  }
}

/**
 * Approves and runs the action with the approver's permissions. On success it is `executed` with the
 * result; when the change itself fails (its service refuses) it is `failed` with the error, which is
 * returned to the caller as that service's error.
 */
export async function approveAction(
  ctx: Ctx,
  input: { alertId: string; actionId: string; argsHash?: string | null },
): Promise<AssistantAction> {
  const me = requireUser(ctx);
  const action = await loadAction(ctx, input.alertId, input.actionId);
  assertMayApprove(me, action);
  await assertDecidable(ctx, action, input.argsHash);
  const claimed = await settle(ctx, action.id, 'proposed', {
    status: 'approved',
    decidedById: me.userId,
    decidedAt: ctx.rt.clock.now(),
  });
  if (!claimed) throw new Conflict('The action was decided by someone else meanwhile.');
  try {
    const result = await execute(ctx, action);
    await settle(ctx, action.id, 'approved', { status: 'executed', result: result as Prisma.InputJsonValue });
  } catch (err) {
    const message = err instanceof DomainError ? err.message : 'Unexpected error.';
    await settle(ctx, action.id, 'approved', { status: 'failed', result: { error: message } });
    throw err;
  }
  return ctx.db.assistantAction.findUniqueOrThrow({ where: { id: action.id } });
}

/** Rejects the action, recording who and why. */
export async function rejectAction(
  ctx: Ctx,
  input: { alertId: string; actionId: string; reason?: string | null },
): Promise<AssistantAction> {
  const me = requireUser(ctx);
  if (input.reason != null && input.reason.length > 2000) throw invalid('reason', 'must be at most 2000 characters');
  const action = await loadAction(ctx, input.alertId, input.actionId);
  assertMayReject(me, action);
  await assertDecidable(ctx, action, null, false);
  const ok = await settle(ctx, action.id, 'proposed', {
    status: 'rejected',
    decidedById: me.userId,
    decidedAt: ctx.rt.clock.now(),
    reason: input.reason?.trim() || null,
  });
  if (!ok) throw new Conflict('The action was decided by someone else meanwhile.');
  return ctx.db.assistantAction.findUniqueOrThrow({ where: { id: action.id } });
}
