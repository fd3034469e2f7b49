/**
 * `npm run --silent ops -- <group> <action> [options]`: operator commands for scripts and automation.
 *
 * stdout carries only the result (JSON with --json, text otherwise); messages go to stderr.
 * Exit codes: 0 success, 1 failure (not found, conflict, storage unavailable), 2 usage error
 * (unknown command or option, missing or invalid value, bad configuration). The work is done by
 * `runCli` (run.ts); this entry only prints and exits.
 */
import { runCli } from './run.js';

const outcome = await runCli(process.argv.slice(2), process.env);
if (outcome.stdout) process.stdout.write(outcome.stdout + '\n');
if (outcome.stderr) process.stderr.write(outcome.stderr + '\n');
process.exitCode = outcome.code;
// Everything is closed by now; do not let a lingering handle keep a script waiting.
setTimeout(() => process.exit(outcome.code), 2000).unref();
