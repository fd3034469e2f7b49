/**
 * Token upkeep: revoked PATs are removed 7 days after revocation (docs/spec.md: reactivation window).
 */
import { purgeRevokedTokens } from '../src/auth/tokens.js';
import type { MaintenanceTask } from './task.js';

export const tokenTasks: MaintenanceTask[] = [
  {
    name: 'purge-revoked-tokens',
    everyMs: () => 60 * 60 * 1000,
    run: (rt) => purgeRevokedTokens(rt.prisma, rt.clock.now()),
  },
];
