/**
 * REST routes of the alerts area.
 */
import type { RouteEntry } from '../route-types.js';

export const alertsRoutes: RouteEntry[] = [];
