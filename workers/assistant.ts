/**
 * Assistant upkeep: proposed actions past their time (ASSISTANT_ACTION_TTL_SECONDS) are marked expired.
 */
import { expireOverdueActions } from '../src/assistant/actions.js';
import type { MaintenanceTask } from './task.js';

export const assistantTasks: MaintenanceTask[] = [
  { name: 'expire-assistant-actions', everyMs: () => 60_000, run: (rt) => expireOverdueActions(rt) },
];
