/**
 * REST routes of the rules area.
 */
import type { RouteEntry } from '../route-types.js';

export const rulesRoutes: RouteEntry[] = [];
