/**
 * `npm run ops`: the operator CLI, compiled (dist/), like `npm start`: rebuilt first when a TypeScript
 * source is newer than the last build (a pull, an edit). The build says so on stderr: stdout carries only
 * the command's result. Through tsx instead, every command spent seconds compiling the CLI's modules.
 */
import { buildServer, serverStale } from './build-server.mjs';

if (serverStale()) {
  const started = Date.now();
  console.error('building the server (TypeScript → dist/)');
  await buildServer();
  console.error(`server built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
await import('../dist/src/server/cli/main.js');
