/**
 * The REST route table: every /api/v1 route, area by area.
 */
import type { RouteEntry } from '../route-types.js';
import { authRoutes } from './auth.js';
import { eventsRoutes } from './events.js';
import { rulesRoutes } from './rules.js';
import { alertsRoutes } from './alerts.js';
import { webhooksRoutes } from './webhooks.js';
import { devicesRoutes } from './devices.js';
import { proposalsRoutes } from './proposals.js';

// Events first: ingest is the busiest route and Express tries routes in order.
export const routes: RouteEntry[] = [...eventsRoutes, ...authRoutes, ...rulesRoutes, ...alertsRoutes, ...webhooksRoutes, ...devicesRoutes, ...proposalsRoutes];
