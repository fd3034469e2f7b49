/**
 * Runs the real operator CLI: in this process (`runCli`, for most tests) or as a child process (the
 * compiled `dist/src/server/cli/main.js`, for the few tests of what only a process shows).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CliOptions } from '../../src/server/cli/run.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Node arguments that run the service as `npm start` does: the compiled dist/ (built by test/global-setup.ts
 * when a source is newer), without a TypeScript loader transforming the sources in every spawned process.
 */
export const SERVICE_MAIN = ['--enable-source-maps', path.join(REPO_ROOT, 'dist/src/server/main.js')];
/** The operator CLI, compiled (what `npm run ops` runs, through scripts/ops.mjs). */
export const CLI_MAIN = ['--enable-source-maps', path.join(REPO_ROOT, 'dist/src/server/cli/main.js')];
/** The same compiled CLI on a clock moved by TEST_CLOCK_OFFSET_MS (env), for a peer of a test server on its clock. */
export const CLI_ON_CLOCK = ['--enable-source-maps', path.join(REPO_ROOT, 'test/fixtures/ops-on-clock.mjs')];

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Env for a child process: this one's, minus vitest's own markers, plus `env`. */
export function childEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const k of Object.keys(base)) if (k.startsWith('VITEST') || k === 'NODE_OPTIONS') delete base[k];
  const out: NodeJS.ProcessEnv = { ...base, LOG_LEVEL: 'warn' };
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** Runs `cmd args` in the repository and collects its output and exit code. */
export function run(cmd: string, args: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: REPO_ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs `script` in one fresh `bash --norc --noprofile` (read from its stdin, as pasted) in the repository. */
export function runShell(script: string, env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const bash = spawn('bash', ['--norc', '--noprofile'], { cwd: REPO_ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    bash.stdout.on('data', (d) => (stdout += d));
    bash.stderr.on('data', (d) => (stderr += d));
    bash.on('error', reject);
    bash.on('close', (code) => resolve({ code, stdout, stderr }));
    bash.stdin.end(script + '\n');
  });
}

/** `ops <args>` as a process: the compiled CLI (what `npm run ops` runs, without npm's start-up). */
export function ops(args: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  return run(process.execPath, [...CLI_MAIN, ...args], env);
}

/** `ops <args>` as a process on the clock TEST_CLOCK_OFFSET_MS (env) moves: a peer of a test server on its clock. */
export function opsOnClock(args: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  return run(process.execPath, [...CLI_ON_CLOCK, ...args], env);
}

/** `npm run --silent ops -- <args>`, exactly as documented. */
export function npmOps(args: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  return run('npm', ['run', '--silent', 'ops', '--', ...args], env);
}

/**
 * `ops <args>` in this process: the same `runCli` the entry point runs, with configuration from `env`
 * only (undefined removes a variable), and the outcome as a process would print it. `opts.clock`: the
 * standalone commands' "now" (a test server's clock, for a peer such as `gpu collect`).
 */
export async function opsInProcess(
  args: string[],
  env: Record<string, string | undefined>,
  opts: CliOptions = {},
): Promise<CliResult> {
  const { runCli } = await import('../../src/server/cli/run.js');
  const clean: NodeJS.ProcessEnv = { LOG_LEVEL: 'warn' };
  for (const [k, v] of Object.entries(env)) if (v !== undefined) clean[k] = v;
  const out = await runCli(args, clean, opts);
  return {
    code: out.code,
    stdout: out.stdout === undefined ? '' : out.stdout + '\n',
    stderr: out.stderr === undefined ? '' : out.stderr + '\n',
  };
}
