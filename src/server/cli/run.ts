/**
 * The operator CLI as a function: `runCli(argv, env)` parses, runs the command and returns what to print
 * and the exit code, without touching the process (main.ts does the printing and exiting). Tests call it
 * in-process; the few process tests check what only a real process shows (exit status, stdout purity).
 *
 * Exit codes: 0 success, 1 failure (not found, conflict, storage unavailable), 2 usage error
 * (unknown command or option, missing or invalid value, bad configuration).
 */
import { parseArgs } from 'node:util';
import { loadConfig, ConfigError } from '../../config.js';
import { DomainError, ValidationFailed } from '../../errors.js';
import { commands as coreCommands, UsageError, type Command, type Values } from './commands.js';
import { dailyCommands } from './daily-commands.js';
import { dbBackup, dbRestore, expandBackupShorthand } from './backup.js';
import { CliFailure, migrate, openCliRuntime, openStorage } from './runtime.js';
import { adminSocketPath, sendToAdminSocket } from './admin-client.js';
import type { Runtime } from '../../runtime.js';
import type { Clock } from '../../clock.js';

/** Set for commands run inside a server: its HTTP address, for the URLs they print. */
export const SERVER_URL_ENV = 'OPS_SERVER_URL';

/** Every command: tenants, users, tokens, keys and the database; then the daily tasks inside a tenant. */
const ORDER = [
  'tenant',
  'user',
  'password',
  'token',
  'ingest-key',
  'rule',
  'device',
  'webhook',
  'db',
  'retention',
  'cluster',
  'gpu',
];
const commands: Command[] = [...coreCommands, ...dailyCommands, dbBackup, dbRestore].sort(
  (a, b) => ORDER.indexOf(a.name.split(' ')[0]!) - ORDER.indexOf(b.name.split(' ')[0]!),
);

const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;

function globalUsage(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'Usage: npm run --silent ops -- <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Options for every command: --json (machine-readable stdout), --help.',
    'Storage: DATABASE_URL (Postgres), or the embedded database under DATA_DIR (default ./data) when unset;',
    'while a server runs on that embedded database, commands run inside it (its admin socket DATA_DIR/run/ops.sock).',
    'REDIS_URL (optional) lets running servers hear about the change.',
  ].join('\n');
}

function commandUsage(c: Command): string {
  return `Usage: npm run --silent ops -- ${c.name} ${c.synopsis}\n${c.summary}`;
}

/** A service's field problems as option names, e.g. `--admin-email: must be an email address`. */
function describeFields(err: ValidationFailed, c: Command): string {
  const fields = err.extra.fields ?? [];
  if (!fields.length) return err.message;
  return fields.map((f) => `${c.fieldOptions?.[f.loc[f.loc.length - 1]] ?? f.loc.join('.')}: ${f.msg}`).join('\n');
}

export interface Outcome {
  code: number;
  /** The result (without the final newline). */
  stdout?: string;
  /** The error message or usage (without the final newline). */
  stderr?: string;
}

export interface CliOptions {
  /** "Now" of the command (default: the system clock; a test passes its server's clock, for a peer of that server). */
  clock?: Clock;
}

/** Runs a parsed command in this process: on its own storage and Runtime, or through a running server. */
async function executeHere(
  c: Command,
  values: Values,
  env: NodeJS.ProcessEnv,
  argv: string[],
  opts: CliOptions,
): Promise<Outcome> {
  if (c.standalone) {
    const result = await c.run(undefined as never, values, env, opts.clock);
    return { code: 0, stdout: values.json ? JSON.stringify(result.json) : result.text };
  }
  const config = loadConfig(env);
  if (!config.databaseUrl) {
    // A server running on this embedded database holds it: hand the command to that server (admin socket).
    const viaServer = await sendToAdminSocket(adminSocketPath(config.dataDir), argv);
    if (viaServer) return viaServer;
  }
  const storage = await openStorage(config);
  try {
    if (!c.migrates) await migrate(storage.databaseUrl, true);
    const rt = await openCliRuntime(
      c.migrates ? { ...config, redisUrl: undefined, redisCluster: undefined } : config,
      storage.databaseUrl,
      storage.embedded,
      opts.clock,
    );
    try {
      return await runWith(c, values, rt, env);
    } finally {
      await rt.close();
    }
  } finally {
    await storage.close();
  }
}

/** The one place a command runs, whichever process holds the Runtime. */
async function runWith(c: Command, values: Values, rt: Runtime, env: NodeJS.ProcessEnv): Promise<Outcome> {
  const result = await c.run(rt, values, env);
  return { code: 0, stdout: values.json ? JSON.stringify(result.json) : result.text };
}

type Parsed = { c: Command; values: Values } | Outcome;

/** Finds the command and parses its options; an Outcome when there is nothing to run (usage, help). */
function parse(given: string[]): Parsed {
  const argv = expandBackupShorthand(given);
  const words = argv.slice(0, 2).join(' ');
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    return { code: argv.length === 0 ? EXIT_USAGE : 0, [argv.length === 0 ? 'stderr' : 'stdout']: globalUsage() };
  }
  const c = commands.find((x) => x.name === words);
  if (!c) return { code: EXIT_USAGE, stderr: `Unknown command "${words}".\n\n${globalUsage()}` };

  let values: Values;
  try {
    const parsed = parseArgs({
      args: argv.slice(2),
      options: { ...c.options, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    });
    values = parsed.values as Values;
  } catch (err) {
    return { code: EXIT_USAGE, stderr: `${(err as Error).message}\n\n${commandUsage(c)}` };
  }
  if (values.help) return { code: 0, stdout: commandUsage(c) };
  const missing = c.required.filter((k) => values[k] === undefined || values[k] === '');
  if (missing.length)
    return { code: EXIT_USAGE, stderr: `Missing ${missing.map((k) => `--${k}`).join(', ')}.\n\n${commandUsage(c)}` };
  return { c, values };
}

/** Maps what a command threw to the exit code and message (the same wherever it ran). */
function failure(c: Command, err: unknown): Outcome {
  if (c.usageErrors?.some((k) => err instanceof k))
    return { code: EXIT_USAGE, stderr: `${(err as Error).message}\n\n${commandUsage(c)}` };
  if (err instanceof UsageError) return { code: EXIT_USAGE, stderr: `${err.message}\n\n${commandUsage(c)}` };
  if (err instanceof ConfigError) return { code: EXIT_USAGE, stderr: `Configuration error: ${err.message}` };
  if (err instanceof ValidationFailed) return { code: EXIT_USAGE, stderr: `Invalid input:\n${describeFields(err, c)}` };
  if (err instanceof DomainError || err instanceof CliFailure)
    return { code: EXIT_FAILURE, stderr: `Error: ${err.message}` };
  return { code: EXIT_FAILURE, stderr: `Error: ${(err as Error).message ?? String(err)}` };
}

/**
 * Runs the CLI for `argv` (without node and script) with configuration from `env`, and returns what to
 * print and the exit code. Migration progress and log lines still go to the process's stderr. Without
 * DATABASE_URL, when a server runs on the embedded database under DATA_DIR, the command runs in that
 * server (src/server/admin-socket.ts).
 */
export async function runCli(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  opts: CliOptions = {},
): Promise<Outcome> {
  const p = parse(argv);
  if (!('c' in p)) return p;
  try {
    return await executeHere(p.c, p.values, env, argv, opts);
  } catch (err) {
    return failure(p.c, err);
  }
}

/**
 * Runs the CLI for `argv` inside a running server with its Runtime (the admin socket's side): the
 * same parsing, command and error mapping as `runCli`. Commands that need no storage run as usual.
 */
export async function runCliInServer(argv: string[], rt: Runtime, serverUrl?: string): Promise<Outcome> {
  const p = parse(argv);
  if (!('c' in p)) return p;
  try {
    if (p.c.standalone) return { code: EXIT_USAGE, stderr: `"${p.c.name}" needs no server; run it directly.` };
    return await runWith(p.c, p.values, rt, { ...process.env, ...(serverUrl ? { [SERVER_URL_ENV]: serverUrl } : {}) });
  } catch (err) {
    return failure(p.c, err);
  }
}
