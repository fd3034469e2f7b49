/**
 * Periodic upkeep of integrations and clusters (registered in workers/maintenance.ts): the health
 * check of every enabled integration (INTEGRATION_HEALTH_INTERVAL_MS), scheduled pulls of the providers
 * that have an interval (every 5 s it pulls those whose interval elapsed) and, on members, the heartbeat
 * to each hub with the forwarding of critical alerts (CLUSTER_HEARTBEAT_MS).
 */
import { checkAllIntegrations } from '../src/integrations/health.js';
import { pullDueIntegrations, SCHEDULED_PULL_TICK_MS } from '../src/integrations/ingest.js';
import { heartbeatAllLinks } from '../src/clusters/member.js';
import type { MaintenanceTask } from './task.js';

export const integrationTasks: MaintenanceTask[] = [
  {
    name: 'integration-health',
    everyMs: (c) => c.integrations.healthIntervalMs,
    run: (rt) => checkAllIntegrations(rt),
  },
  // Scheduled pulls of providers that declare an interval (dcgm's `interval_seconds`).
  { name: 'integration-pull', everyMs: () => SCHEDULED_PULL_TICK_MS, run: (rt) => pullDueIntegrations(rt) },
  { name: 'cluster-heartbeat', everyMs: (c) => c.integrations.clusterHeartbeatMs, run: (rt) => heartbeatAllLinks(rt) },
];
