/**
 * `npm start`: rebuilds dist/ when a TypeScript source is newer than the last build (a pull, an edit),
 * then runs the compiled service in this same process (npm execs it, so signals reach it directly).
 * `npm run dev` runs the sources through tsx instead.
 */
import { buildServerIfStale } from './build-server.mjs';

await buildServerIfStale((line) => console.log(line));
await import('../dist/src/server/main.js');
