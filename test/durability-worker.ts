/**
 * A worker-only process for test/durability.test.ts (run with `node --import tsx`): configuration from
 * the environment, no HTTP, BullMQ workers on. Prints "ready" once its workers run, so the test can
 * kill it with SIGKILL at a moment of its choosing.
 */
import { loadConfig } from '../src/config.js';
import { startApp } from '../src/server/app.js';

await startApp(loadConfig(process.env), { http: false, workers: true });
process.stdout.write('ready\n');
