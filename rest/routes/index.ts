/**
 * The REST route table: every /api/v1 route, area by area.
 */
import type { RouteEntry } from '../route-types.js';
import { authRoutes } from './auth.js';
import { usersRoutes } from './users.js';
import { ssoRoutes } from './sso.js';
import { eventsRoutes } from './events.js';
import { alertsRoutes } from './alerts.js';
import { devicesRoutes } from './devices.js';
import { proposalsRoutes } from './proposals.js';
import { assistantRoutes } from './assistant.js';
import { reportsRoutes } from './reports.js';
import { integrationsRoutes } from './integrations.js';
import { clustersRoutes } from './clusters.js';
import { gpuRoutes } from './gpu.js';
import { gpuRunsRoutes } from './gpu-runs.js';
import { billingRoutes } from './billing.js';
import { rulesRoutes } from './rules.js';
import { webhooksRoutes } from './webhooks.js';
import { metaRoutes } from './meta.js';
import { routingRoutes } from './routing.js';
import { routingTreeRoutes } from './routing-tree.js';
import { inhibitRulesRoutes } from './inhibit-rules.js';
import { alertmanagerRoutes } from './alertmanager.js';
import { schedulesRoutes } from './schedules.js';
import { notificationsRoutes } from './notifications.js';
import { escalationRoutes } from './escalation.js';

// Events first: ingest is the busiest route and Express tries routes in order.
export const routes: RouteEntry[] = [
  ...eventsRoutes,
  ...authRoutes,
  ...usersRoutes,
  ...ssoRoutes,
  ...alertsRoutes,
  ...devicesRoutes,
  ...proposalsRoutes,
  ...assistantRoutes,
  ...reportsRoutes,
  ...integrationsRoutes,
  ...clustersRoutes,
  ...gpuRoutes,
  ...gpuRunsRoutes,
  ...billingRoutes,
  ...rulesRoutes,
  ...webhooksRoutes,
  ...metaRoutes,
  ...routingRoutes,
  ...routingTreeRoutes,
  ...inhibitRulesRoutes,
  ...alertmanagerRoutes,
  ...schedulesRoutes,
  ...notificationsRoutes,
  ...escalationRoutes,
];
