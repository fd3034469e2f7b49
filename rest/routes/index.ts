/**
 * The REST route table: every /api/v1 route, area by area.
 */
import type { RouteEntry } from '../route-types.js';
import { authRoutes } from './auth.js';

export const routes: RouteEntry[] = [...authRoutes];
