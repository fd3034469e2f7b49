/**
 * A worker-only process for test/durability.test.ts (run with `node --import tsx`): configuration from
 * the environment, no HTTP, BullMQ workers on. Prints "ready" once its workers run, so the test can
 * kill it with SIGKILL at a moment of its choosing.
 */
import { loadConfig } from '../src/config.js';
import { startApp } from '../src/server/app.js';
import { shiftedClock } from '../src/clock.js';

// On the clock of the server it serves (test/helpers/worker-process.ts passes the offset).
const offset = Number(process.env.TEST_CLOCK_OFFSET_MS ?? 0);
await startApp(loadConfig(process.env), { http: false, workers: true, clock: offset ? shiftedClock(offset) : undefined });
process.stdout.write('ready\n');
