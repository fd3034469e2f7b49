/**
 * The alert state machine (docs/design.md): `open → acknowledged → resolved`, and `snoozed` until a time,
 * then back to `open`. Pure: callers pass the current status and get the next one or a Conflict.
 */
import { Conflict } from '../errors.js';
import type { OutboxTopic } from '../outbox/outbox.js';

export type AlertStatus = 'open' | 'acknowledged' | 'snoozed' | 'resolved';
/** What people do (`acknowledge`, `snooze`, `resolve`) and what the service does (`reopen` when a snooze ends). */
export type AlertAction = 'acknowledge' | 'snooze' | 'resolve' | 'reopen';

const TRANSITIONS: Record<AlertAction, { from: readonly AlertStatus[]; to: AlertStatus; topic: OutboxTopic }> = {
  acknowledge: { from: ['open', 'snoozed'], to: 'acknowledged', topic: 'alert.acknowledged' },
  snooze: { from: ['open', 'acknowledged', 'snoozed'], to: 'snoozed', topic: 'alert.snoozed' },
  resolve: { from: ['open', 'acknowledged', 'snoozed'], to: 'resolved', topic: 'alert.resolved' },
  reopen: { from: ['snoozed'], to: 'open', topic: 'alert.reopened' },
};

const USER_ACTIONS: AlertAction[] = ['acknowledge', 'snooze', 'resolve'];

/** The actions a person may take on an alert in `status` (empty once resolved). */
export function allowedActions(status: AlertStatus): AlertAction[] {
  return USER_ACTIONS.filter((a) => TRANSITIONS[a].from.includes(status));
}

/** True when `action` is allowed from `status`. */
function canTransition(status: AlertStatus, action: AlertAction): boolean {
  return TRANSITIONS[action].from.includes(status);
}

/**
 * The status `action` leads to from `status`; throws Conflict (409) naming the current state and the
 * actions that are allowed from it.
 */
export function nextStatus(status: AlertStatus, action: AlertAction): AlertStatus {
  if (canTransition(status, action)) return TRANSITIONS[action].to;
  const allowed = allowedActions(status);
  throw new Conflict(
    `Cannot ${action} an alert that is ${status}; ` +
      (allowed.length ? `allowed actions: ${allowed.join(', ')}.` : 'a resolved alert allows no further actions.'),
    'ALERT_INVALID_TRANSITION',
  );
}

/** The outbox topic that announces `action`. */
export function topicOf(action: AlertAction): OutboxTopic {
  return TRANSITIONS[action].topic;
}
