/**
 * REST routes of the proposals area.
 */
import type { RouteEntry } from '../route-types.js';

export const proposalsRoutes: RouteEntry[] = [];
