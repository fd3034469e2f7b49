/**
 * Routing's periodic tasks: alerts a silence stopped muting page as new (src/routing/release.ts), on
 * the cadence of waking snoozed alerts (the same kind of change: a pause that ends); routed groups make
 * their due notifications (src/routing/group-notify.ts).
 */
import type { MaintenanceTask } from './task.js';
import { releaseUnmutedAlerts } from '../src/routing/release.js';
import { notifyDueGroups } from '../src/routing/group-notify.js';

export const routingTasks: MaintenanceTask[] = [
  {
    name: 'release-unmuted-alerts',
    everyMs: (c) => c.alerting.snoozeWakeIntervalMs,
    run: (rt) => releaseUnmutedAlerts(rt),
  },
  {
    // A routed group's first notification, group_interval updates and repeats (src/routing/group-notify.ts),
    // on the escalation sweeper's cadence: the same kind of timer.
    name: 'notify-alert-groups',
    everyMs: (c) => c.alerting.escalationSweepIntervalMs,
    run: (rt) => notifyDueGroups(rt),
  },
];
