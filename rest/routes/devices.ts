/**
 * REST routes of the devices area.
 */
import type { RouteEntry } from '../route-types.js';

export const devicesRoutes: RouteEntry[] = [];
