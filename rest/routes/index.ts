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

export const routes: RouteEntry[] = [...authRoutes, ...eventsRoutes, ...rulesRoutes, ...alertsRoutes, ...webhooksRoutes, ...devicesRoutes, ...proposalsRoutes];
