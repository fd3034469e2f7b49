/**
 * `npm start`: rebuilds dist/ when a TypeScript source is newer than the last build (a pull, an edit),
 * then runs the compiled service in this same process (npm execs it, so signals reach it directly).
 * `npm run dev` runs the sources through tsx instead.
 */
import { buildServer, serverStale } from './build-server.mjs';

if (serverStale()) {
  const started = Date.now();
  console.log('building the server (TypeScript → dist/)');
  await buildServer();
  console.log(`server built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
await import('../dist/src/server/main.js');
