/**
 * `npm run ops`: the operator CLI, compiled (dist/), like `npm start`: rebuilt first when a TypeScript
 * source is newer than the last build (a pull, an edit). The build says so on stderr: stdout carries only
 * the command's result. Through tsx instead, every command spent seconds compiling the CLI's modules.
 */
import { buildServerIfStale } from './build-server.mjs';

await buildServerIfStale((line) => console.error(line));
await import('../dist/src/server/cli/main.js');
