/**
 * Builds the operator console into console/dist (run by `npm install` and `npm run console:build`).
 * `--if-stale` skips the build when console/dist is newer than every source file.
 */
import { buildConsole, consoleStale } from '../src/server/console.js';

if (process.argv.includes('--if-stale') && !consoleStale()) process.exit(0);
const started = Date.now();
await buildConsole((m) => console.log(m));
console.log(`console built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
