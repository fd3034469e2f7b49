/**
 * Alert writes shared by rule evaluation, absence checks and user actions. Every function here runs
 * inside the caller's transaction and returns what to announce after commit: the `alertChanged`
 * publication and the outbox ids to dispatch (none for suppressed alerts).
 */
import type { Runtime } from '../runtime.js';
import type { Alert, AlertGroup, Prisma } from '../generated/prisma/client.js';
import { dispatchOutbox, writeOutbox, type OutboxTopic } from '../outbox/outbox.js';
import { allowedActions, nextStatus, topicOf, type AlertAction, type AlertStatus } from './state.js';
import { v7 as uuidv7 } from 'uuid';
import { alertLabelsOf } from './labels.js';
import { alertWire } from './wire.js';
import { announceGroupChanges, followAlertInGroups } from './groups.js';

type Tx = Prisma.TransactionClient;

export type AlertChangeKind =
  | 'opened'
  | 'bumped'
  | 'acknowledged'
  | 'snoozed'
  | 'reopened'
  | 'resolved'
  /** Handed to someone (or unassigned): src/alerts/assignment.ts. */
  | 'assigned'
  /** A note on its timeline: src/alerts/notes.ts. */
  | 'note_added';

/** One change to announce after commit. */
export interface AlertChange {
  change: AlertChangeKind;
  alert: Alert;
  /** The alert's groups the change moved too (src/alerts/groups.ts; a new alert's: src/routing/route-group.ts). */
  groups?: AlertGroup[];
}

/** Writes the outbox message for a change unless the alert is suppressed; returns its id. */
export async function announceInTx(
  tx: Tx,
  alert: Alert,
  topic: OutboxTopic,
  labels: Record<string, unknown>,
  now: Date,
): Promise<string | null> {
  if (alert.suppressed) return null;
  return writeOutbox(tx, {
    createdAt: now,
    tenantId: alert.tenantId,
    topic,
    subjectId: alert.id,
    body: {
      source: alert.source ?? 'ops-service',
      kind: topic,
      severity: alert.severity,
      labels: labels as Prisma.InputJsonValue,
      payload: alertWire(alert) as unknown as Prisma.InputJsonValue,
    },
  });
}

export interface OpenAlertInput {
  /** The service clock's now (the outbox message's time). */
  now: Date;
  tenantId: string;
  ruleId: string | null;
  dedupKey: string;
  severity: Alert['severity'];
  summary: string;
  /** A bump replaces the live alert's summary with `summary` (the rule's `summaryFollowsLatest`). */
  followSummary?: boolean;
  source: string | null;
  deviceId: string | null;
  labels: Record<string, unknown>;
  /** Notes of the source (description, runbook_url, generator_url, …), kept on a new alert. */
  annotations?: Record<string, string>;
  /** Latest time among the events (or the check time of an absence alert). */
  seenAt: Date;
  /** The events that caused it, all attached and counted (absence alerts: none, count 1). */
  eventIds: string[];
  /**
   * Set when an active silence (src/routing) mutes the new alert: recorded, marked, paging no one. A
   * silence that is a maintenance window (`windowName`) marks it with the window too.
   */
  silencedBy?: { id: string; comment: string; windowName?: string | null } | null;
  /** Set when a live alert inhibits the new one (an inhibition rule): recorded, marked, paging no one. */
  inhibitedBy?: { id: string; ruleId: string } | null;
}

export interface OpenResult {
  alert: Alert;
  opened: boolean;
  outboxId: string | null;
}

/**
 * Opens an alert for `dedupKey`, or bumps the live one (count + the events, lastSeenAt) and attaches
 * the events. Atomic against concurrent evaluators: one INSERT … ON CONFLICT on the
 * (tenantId, liveDedupKey) unique index, so at most one live alert exists per key. The caller
 * guarantees an event is evaluated once (it claims events and marks them in the same transaction),
 * so counts never double.
 */
export async function openOrBumpAlert(tx: Tx, input: OpenAlertInput): Promise<OpenResult> {
  const newId = uuidv7();
  const alert = await tx.alert.upsert({
    where: { tenantId_liveDedupKey: { tenantId: input.tenantId, liveDedupKey: input.dedupKey } },
    create: {
      id: newId,
      tenantId: input.tenantId,
      ruleId: input.ruleId,
      deviceId: input.deviceId,
      severity: input.severity,
      summary: input.summary,
      source: input.source,
      labels: alertLabelsOf(input.labels),
      annotations: input.annotations ?? {},
      dedupKey: input.dedupKey,
      liveDedupKey: input.dedupKey,
      firstSeenAt: input.seenAt,
      lastSeenAt: input.seenAt,
      count: Math.max(1, input.eventIds.length),
      suppressed: !!input.silencedBy || !!input.inhibitedBy,
      maintenanceWindowId: input.silencedBy?.windowName ? input.silencedBy.id : null,
      silenceId: input.silencedBy?.id ?? null,
      inhibitedById: input.inhibitedBy?.id ?? null,
    },
    update: {
      count: { increment: input.eventIds.length },
      lastSeenAt: input.seenAt,
      ...(input.followSummary ? { summary: input.summary } : {}),
    },
  });
  const opened = alert.id === newId;
  if (input.eventIds.length)
    await tx.alertEvent.createMany({
      data: input.eventIds.map((eventId) => ({ alertId: alert.id, eventId })),
      skipDuplicates: true,
    });
  let outboxId: string | null = null;
  if (opened) {
    await tx.alertTimelineEntry.create({
      data: {
        tenantId: alert.tenantId,
        alertId: alert.id,
        action: 'opened',
        toStatus: 'open',
        // The service clock, not the database's: MTTA/MTTR are measured on these times (overview.ts).
        createdAt: input.now,
        note: input.silencedBy?.windowName
          ? `Suppressed by maintenance window "${input.silencedBy.windowName}".`
          : input.silencedBy
            ? `Silenced by silence ${input.silencedBy.id} ("${input.silencedBy.comment.slice(0, 200)}").`
            : input.inhibitedBy
              ? `Inhibited by alert ${input.inhibitedBy.id} (inhibition rule ${input.inhibitedBy.ruleId}).`
              : null,
      },
    });
    outboxId = await announceInTx(tx, alert, 'alert.opened', alertLabelsOf(input.labels), input.now);
  }
  return { alert, opened, outboxId };
}

export interface TransitionInput {
  action: AlertAction;
  actorId: string | null;
  /** The event that made the change (a resolve/acknowledge event, a returning heartbeat). */
  actorEventId?: string | null;
  note?: string | null;
  /** "Now" of the change (the service clock's): resolvedAt. */
  now: Date;
  /** Extra columns written with the status (assignee, snoozedUntil, …). */
  data?: Prisma.AlertUncheckedUpdateManyInput;
}

export interface TransitionResult {
  alert: Alert;
  change: AlertChange;
  outboxId: string | null;
}

const CHANGE_OF: Record<AlertAction, AlertChangeKind> = {
  acknowledge: 'acknowledged',
  snooze: 'snoozed',
  resolve: 'resolved',
  reopen: 'reopened',
};

/**
 * Moves `alert` through the state machine (Conflict on an invalid transition), guarded by its current
 * status so a concurrent change makes this one fail instead of overwriting it; records the timeline
 * entry and the outbox message in the same transaction.
 */
export async function transitionAlert(tx: Tx, alert: Alert, t: TransitionInput): Promise<TransitionResult> {
  const to = nextStatus(alert.status, t.action);
  const now = t.now;
  const data: Prisma.AlertUncheckedUpdateManyInput = { ...t.data, status: to };
  if (to === 'resolved') Object.assign(data, { resolvedAt: now, liveDedupKey: null, snoozedUntil: null });
  if (to === 'open' || to === 'acknowledged') data.snoozedUntil = null;
  const updated = await tx.alert.updateManyAndReturn({ where: { id: alert.id, status: alert.status }, data });
  const row = updated[0];
  if (!row) {
    const fresh = await tx.alert.findUniqueOrThrow({ where: { id: alert.id } });
    nextStatus(fresh.status, t.action); // throws Conflict with the state it is in now
    return transitionAlert(tx, fresh, t);
  }
  await tx.alertTimelineEntry.create({
    data: {
      tenantId: row.tenantId,
      alertId: row.id,
      actorId: t.actorId,
      actorEventId: t.actorEventId ?? null,
      action: CHANGE_OF[t.action],
      fromStatus: alert.status,
      toStatus: to,
      note: t.note ?? null,
      createdAt: now,
    },
  });
  const outboxId = await announceInTx(tx, row, topicOf(t.action), row.labels as Record<string, unknown>, now);
  const groups = await followAlertInGroups(tx, row, t.action, t.actorId, now);
  return { alert: row, change: { change: CHANGE_OF[t.action], alert: row, groups }, outboxId };
}

export interface EventActionInput {
  tenantId: string;
  dedupKey: string;
  action: 'acknowledge' | 'resolve';
  /** The event that asks for it: attached to the alert and named as the actor on its timeline. */
  eventId: string;
  note: string;
  /** The service clock's now. */
  now: Date;
}

/**
 * Acknowledges or resolves the live alert with `dedupKey` on behalf of an event (PagerDuty's
 * `event_action`). Returns null, changing nothing, when no alert with that key is live or the action
 * does not apply to its state (acknowledging an acknowledged alert): a sender repeating itself is no
 * error.
 */
export async function actOnLiveAlertByEvent(tx: Tx, input: EventActionInput): Promise<TransitionResult | null> {
  const live = await tx.alert.findUnique({
    where: { tenantId_liveDedupKey: { tenantId: input.tenantId, liveDedupKey: input.dedupKey } },
  });
  if (!live || !allowedActions(live.status as AlertStatus).includes(input.action)) return null;
  await tx.alertEvent.createMany({ data: [{ alertId: live.id, eventId: input.eventId }], skipDuplicates: true });
  return transitionAlert(tx, live, {
    action: input.action,
    actorId: null,
    actorEventId: input.eventId,
    note: input.note,
    now: input.now,
    ...(input.action === 'acknowledge' ? { data: { acknowledgedAt: input.now } } : {}),
  });
}

/**
 * After commit: publishes `alertChanged` (one message per alert, the latest change, except that an
 * `opened` is never hidden by a later bump in the same batch) and dispatches the outbox messages.
 */
export async function announceAlertChanges(
  rt: Runtime,
  changes: AlertChange[],
  outboxIds: Array<string | null>,
): Promise<void> {
  const latest = new Map<string, AlertChange>();
  for (const c of changes) {
    const prev = latest.get(c.alert.id);
    latest.set(
      c.alert.id,
      prev?.change === 'opened' && c.change === 'bumped' ? { change: 'opened', alert: c.alert } : c,
    );
  }
  for (const c of latest.values()) {
    try {
      rt.pubsub.publish('alertChanged', c.alert.tenantId, { change: c.change, ...alertWire(c.alert) });
    } catch (err) {
      rt.logger.warn({ err, alertId: c.alert.id }, 'alertChanged publish failed');
    }
  }
  await dispatchOutbox(
    rt,
    outboxIds.filter((x): x is string => !!x),
  );
  const groups = changes.flatMap((c) => c.groups ?? []);
  if (groups.length) await announceGroupChanges(rt, groups);
}
