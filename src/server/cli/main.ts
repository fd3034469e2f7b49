/**
 * `npm run --silent ops -- <group> <action> [options]`: operator commands for scripts and automation.
 *
 * stdout carries only the result (JSON with --json, text otherwise); messages go to stderr.
 * Exit codes: 0 success, 1 failure (not found, conflict, storage unavailable), 2 usage error
 * (unknown command or option, missing or invalid value, bad configuration). The work is done by
 * `runCli` (run.ts); this entry only prints and exits.
 */
import { runCliProcess } from './process.js';

await runCliProcess(process.argv.slice(2), process.env);
