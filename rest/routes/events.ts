/**
 * REST routes of the events area.
 */
import type { RouteEntry } from '../route-types.js';

export const eventsRoutes: RouteEntry[] = [];
