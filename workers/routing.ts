/**
 * Routing's periodic task: alerts a silence stopped muting page as new (src/routing/release.ts), on
 * the cadence of waking snoozed alerts (the same kind of change: a pause that ends).
 */
import type { MaintenanceTask } from './task.js';
import { releaseUnmutedAlerts } from '../src/routing/release.js';

export const routingTasks: MaintenanceTask[] = [
  {
    name: 'release-unmuted-alerts',
    everyMs: (c) => c.alerting.snoozeWakeIntervalMs,
    run: (rt) => releaseUnmutedAlerts(rt),
  },
];
