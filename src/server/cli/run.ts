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
import { commands, UsageError, type Command, type Values } from './commands.js';
import { CliFailure, migrate, openCliRuntime, openStorage } from './runtime.js';

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

async function execute(c: Command, values: Values, env: NodeJS.ProcessEnv): Promise<Outcome> {
  if (c.standalone) {
    const result = await c.run(undefined as never, values, env);
    return { code: 0, stdout: values.json ? JSON.stringify(result.json) : result.text };
  }
  const config = loadConfig(env);
  const storage = await openStorage(config);
  try {
    if (!c.migrates) await migrate(storage.databaseUrl, true);
    const rt = await openCliRuntime(c.migrates ? { ...config, redisUrl: undefined } : config, storage.databaseUrl, storage.embedded);
    try {
      const result = await c.run(rt, values, env);
      return { code: 0, stdout: values.json ? JSON.stringify(result.json) : result.text };
    } finally {
      await rt.close();
    }
  } finally {
    await storage.close();
  }
}

/**
 * Runs the CLI for `argv` (without node and script) with configuration from `env`, and returns what to
 * print and the exit code. Migration progress and log lines still go to the process's stderr.
 */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<Outcome> {
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
  if (missing.length) return { code: EXIT_USAGE, stderr: `Missing ${missing.map((k) => `--${k}`).join(', ')}.\n\n${commandUsage(c)}` };

  try {
    return await execute(c, values, env);
  } catch (err) {
    if (c.usageErrors?.some((k) => err instanceof k)) return { code: EXIT_USAGE, stderr: `${(err as Error).message}\n\n${commandUsage(c)}` };
    if (err instanceof UsageError) return { code: EXIT_USAGE, stderr: `${err.message}\n\n${commandUsage(c)}` };
    if (err instanceof ConfigError) return { code: EXIT_USAGE, stderr: `Configuration error: ${err.message}` };
    if (err instanceof ValidationFailed) return { code: EXIT_USAGE, stderr: `Invalid input:\n${describeFields(err, c)}` };
    if (err instanceof DomainError || err instanceof CliFailure) return { code: EXIT_FAILURE, stderr: `Error: ${err.message}` };
    return { code: EXIT_FAILURE, stderr: `Error: ${(err as Error).message ?? String(err)}` };
  }
}

