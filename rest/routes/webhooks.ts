/**
 * REST routes of the webhooks area.
 */
import type { RouteEntry } from '../route-types.js';

export const webhooksRoutes: RouteEntry[] = [];
