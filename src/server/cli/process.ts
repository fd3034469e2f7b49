/**
 * The CLI as a process: runs `runCli` (run.ts), prints its outcome (stdout: the result; stderr: the
 * message) and exits with its code. The entry point (main.ts) calls it; a test process may pass a clock.
 */
import { runCli, type CliOptions } from './run.js';

export async function runCliProcess(argv: string[], env: NodeJS.ProcessEnv, opts: CliOptions = {}): Promise<void> {
  const outcome = await runCli(argv, env, opts);
  if (outcome.stdout) process.stdout.write(outcome.stdout + '\n');
  if (outcome.stderr) process.stderr.write(outcome.stderr + '\n');
  process.exitCode = outcome.code;
  // Everything is closed by now; do not let a lingering handle keep a script waiting.
  setTimeout(() => process.exit(outcome.code), 2000).unref();
}
