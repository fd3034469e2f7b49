/**
 * Shared set-up of the operator CLI tests (test/cli*.test.ts, but cli-server's): one server on Postgres
 * whose database, Redis prefix and a DATA_DIR the CLI is pointed at (`env`); `ops` runs each command as
 * the compiled CLI process, on the suite server's clock.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { clockOffsetMs, startTestServer, type TestServer } from './server.js';
import { REDIS_URL } from './env.js';
import { rest } from './http.js';
import { ops as opsProcess, opsOnClock, type CliResult } from './cli.js';

// Commands run as the compiled CLI process, on the suite server's clock (a peer of that server:
// TEST_TIME_OF_DAY moves both); a few smoke tests start it through npm: exit 0 with pure JSON stdout, 1 and 2.
export const ops: typeof opsProcess = (args, env) =>
  opsOnClock(args, { TEST_CLOCK_OFFSET_MS: String(clockOffsetMs(s)), ...env });

export let s: TestServer;
export let env: Record<string, string | undefined>;
export const tmpDirs: string[] = [];

export function uniq(): string {
  return crypto.randomBytes(4).toString('hex');
}

export function tmpDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-cli-'));
  tmpDirs.push(d);
  return d;
}

/** Parses stdout as exactly one JSON document (fails on any extra output). */
export function json(r: CliResult): any {
  expect(r.stderr).not.toMatch(/^Error/m);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

export async function login(email: string, password: string) {
  return rest(s.url).post('/auth/login', { email, password });
}

export async function createTenant(name = `cli-${uniq()}`) {
  const password = 'pw-' + uniq() + uniq();
  const email = `admin-${uniq()}@${name}.test`;
  const out = json(
    await ops(
      ['tenant', 'create', '--name', name, '--admin-email', email, '--admin-password', password, '--json'],
      env,
    ),
  );
  return { ...out, name, email, password };
}

/** Registers the file's hooks: the server before; it and the temporary directories removed after. */
export function useCliSuite(): void {
  beforeAll(async () => {
    // Allowlisted loopback: the member side of `ops cluster join` calls a hub on 127.0.0.1.
    s = await startTestServer({ env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1' } });
    env = { DATABASE_URL: s.db.url, REDIS_URL, REDIS_PREFIX: s.config.redisPrefix, DATA_DIR: tmpDir() };
  });
  afterAll(async () => {
    await s?.stop();
    for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true });
  });
}
