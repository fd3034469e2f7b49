/**
 * The operator CLI while the server runs on the embedded database (issue 16): PGlite is one process's
 * database, so `npm run ops` hands its command to the running server through the admin socket
 * (DATA_DIR/run/ops.sock) and the server runs the same command. A real server process (`node --import
 * tsx src/server/main.ts`, what `npm start` execs) with a temporary DATA_DIR and no DATABASE_URL; the CLI
 * as real processes; the effects checked over the server's REST API. After the server stops, the same
 * commands open the embedded database themselves.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { testRedisPrefix } from './helpers/env.js';
import { npmOps, ops, type CliResult } from './helpers/cli.js';
import { rest } from './helpers/http.js';
import { startEmbeddedService, stopEmbeddedService } from './helpers/processes.js';

let svc: Awaited<ReturnType<typeof startEmbeddedService>>;
let dataDir: string;
let cliEnv: Record<string, string | undefined>;
let adminToken: string;
const redisPrefix = `${testRedisPrefix(inject('testRunId'))}cli${process.pid}`;

function json(r: CliResult): any {
  expect(r.stderr, r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

beforeAll(async () => {
  svc = await startEmbeddedService('ops-cli-srv', redisPrefix);
  dataDir = svc.dataDir;
  // What the CLI sees: the same DATA_DIR, no DATABASE_URL (so the embedded database the server holds).
  cliEnv = { DATA_DIR: dataDir, DATABASE_URL: undefined, REDIS_URL: undefined };
  adminToken = json(
    await ops(['token', 'create', '--email', 'admin@demo.local', '--name', 'cli-test', '--json'], cliEnv),
  ).token;
}, 180_000);
afterAll(() => stopEmbeddedService(svc, redisPrefix));

describe('ops while the server runs on the embedded database', () => {
  it(
    'creates a user through npm run --silent ops, and the user logs in to the running server',
    { timeout: 60_000 },
    async () => {
      // The admin socket exists only for its owner.
      const sock = path.join(dataDir, 'run', 'ops.sock');
      expect(fs.statSync(path.dirname(sock)).mode & 0o777).toBe(0o700);
      expect(fs.statSync(sock).isSocket()).toBe(true);

      const out = json(
        await npmOps(
          [
            'user',
            'create',
            '--tenant',
            'demo',
            '--email',
            'carol@demo.local',
            '--password',
            'carol-password-1',
            '--role',
            'member',
            '--json',
          ],
          cliEnv,
        ),
      );
      expect(out).toMatchObject({ email: 'carol@demo.local', role: 'member', kind: 'human', tenant: { name: 'demo' } });
      const login = await rest(svc.url).post('/auth/login', {
        email: 'carol@demo.local',
        password: 'carol-password-1',
      });
      expect(login.status).toBe(200);
      expect((await rest(svc.url, login.body.access_token).get('/auth/me')).body.role).toBe('member');

      // A service user, listed with the rest.
      json(
        await ops(
          ['user', 'create', '--tenant', 'demo', '--email', 'ci@demo.local', '--role', 'member', '--service', '--json'],
          cliEnv,
        ),
      );
      const users = json(await ops(['user', 'list', '--tenant', 'demo', '--json'], cliEnv)).items;
      expect(users.map((u: { email: string; kind: string }) => `${u.email}:${u.kind}`)).toEqual([
        'admin@demo.local:human',
        'carol@demo.local:human',
        'ci@demo.local:service',
      ]);
    },
  );

  it(
    'sets a role and resets a password: the old password and session stop working, the new one works',
    { timeout: 60_000 },
    async () => {
      json(
        await ops(
          [
            'user',
            'create',
            '--tenant',
            'demo',
            '--email',
            'dave@demo.local',
            '--password',
            'dave-password-1',
            '--role',
            'member',
            '--json',
          ],
          cliEnv,
        ),
      );
      const before = await rest(svc.url).post('/auth/login', { email: 'dave@demo.local', password: 'dave-password-1' });
      expect(before.status).toBe(200);

      const role = json(
        await ops(['user', 'set-role', '--email', 'dave@demo.local', '--role', 'admin', '--json'], cliEnv),
      );
      expect(role).toMatchObject({ role: 'admin', previous_role: 'member' });
      expect((await rest(svc.url, before.body.access_token).get('/auth/me')).body.role).toBe('admin');

      const reset = json(await ops(['password', 'reset', '--email', 'dave@demo.local', '--json'], cliEnv));
      expect(reset.sessions_ended).toBe(1);
      expect(reset.password).toMatch(/^[\w-]{16}$/);
      expect((await rest(svc.url, before.body.access_token).get('/auth/me')).status).toBe(401);
      expect(
        (await rest(svc.url).post('/auth/login', { email: 'dave@demo.local', password: 'dave-password-1' })).status,
      ).toBe(401);
      expect(
        (await rest(svc.url).post('/auth/login', { email: 'dave@demo.local', password: reset.password })).status,
      ).toBe(200);

      const bad = await ops(['password', 'reset', '--email', 'ci@demo.local', '--password', 'whatever-123'], cliEnv);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--email: is a service user');
      const missing = await ops(['user', 'set-role', '--email', 'nobody@demo.local', '--role', 'admin'], cliEnv);
      expect(missing.code).toBe(1);
      expect(missing.stdout).toBe('');
      expect(missing.stderr).toMatch(/not found/i);
    },
  );

  it(
    'rules, devices and webhooks made with ops are what the API shows; usage errors name the option',
    { timeout: 90_000 },
    async () => {
      const api = rest(svc.url, adminToken);
      const rule = json(
        await ops(
          [
            'rule',
            'create',
            '--tenant',
            'demo',
            '--name',
            'Deploy failed',
            '--type-glob',
            'deploy.*',
            '--severity',
            'critical',
            '--alert-severity',
            'critical',
            '--json',
          ],
          cliEnv,
        ),
      );
      expect((await api.get(`/alert-rules/${rule.id}`)).body).toEqual(rule);
      const hb = json(
        await ops(
          [
            'rule',
            'create',
            '--tenant',
            'demo',
            '--name',
            'Heartbeat',
            '--kind',
            'absence',
            '--type-glob',
            'heartbeat',
            '--window-seconds',
            '300',
            '--json',
          ],
          cliEnv,
        ),
      );
      expect(hb).toMatchObject({ kind: 'absence', window_seconds: 300 });
      const noWindow = await ops(['rule', 'create', '--tenant', 'demo', '--name', 'x', '--kind', 'absence'], cliEnv);
      expect(noWindow.code).toBe(2);
      expect(noWindow.stderr).toContain('--window-seconds: is required for an absence rule');
      expect(
        json(await ops(['rule', 'list', '--tenant', 'demo', '--json'], cliEnv)).items.map((r: { id: string }) => r.id),
      ).toEqual([rule.id, hb.id]);
      expect(json(await ops(['rule', 'delete', '--tenant', 'demo', '--id', hb.id, '--json'], cliEnv))).toEqual({
        id: hb.id,
        deleted: true,
      });
      expect((await api.get(`/alert-rules/${hb.id}`)).status).toBe(404);

      const device = json(
        await ops(
          ['device', 'create', '--tenant', 'demo', '--name', 'edge-1', '--site', 'ams1', '--role', 'edge', '--json'],
          cliEnv,
        ),
      );
      expect((await api.get(`/sot/devices/${device.id}`)).body).toMatchObject({
        name: 'edge-1',
        site: 'ams1',
        role: 'edge',
      });
      expect(
        json(await ops(['device', 'list', '--tenant', 'demo', '--json'], cliEnv)).items.map(
          (d: { name: string }) => d.name,
        ),
      ).toEqual(['edge-1']);
      const taken = await ops(['device', 'create', '--tenant', 'demo', '--name', 'edge-1'], cliEnv);
      expect(taken.code).toBe(1);
      expect(taken.stderr).toContain('already exists');

      const inbound = json(await ops(['webhook', 'create', '--tenant', 'demo', '--name', 'GitHub', '--json'], cliEnv));
      expect(inbound.url).toBe(`${svc.url}/api/v1/webhooks/${inbound.slug}`);
      expect(inbound.secret).toMatch(/^whsec_/);
      const listed = await api.get('/inbound-webhooks');
      expect(listed.body.items.map((w: { id: string }) => w.id)).toEqual([inbound.id]);
      const badTopic = await ops(
        [
          'webhook',
          'create',
          '--tenant',
          'demo',
          '--name',
          'pager',
          '--url',
          'https://hooks.example.net/x',
          '--on',
          'alert.exploded',
        ],
        cliEnv,
      );
      expect(badTopic.code).toBe(2);
      expect(badTopic.stderr).toContain('--on: unknown topic alert.exploded');
      const all = json(await ops(['webhook', 'list', '--tenant', 'demo', '--json'], cliEnv));
      expect(all.inbound.map((w: { id: string }) => w.id)).toEqual([inbound.id]);
      expect(all.outbound).toEqual([]);
    },
  );
});

describe('ops after the server stopped', () => {
  it('opens the embedded database itself and sees what was made through the server', { timeout: 120_000 }, async () => {
    svc.child.kill('SIGTERM');
    expect((await svc.exited).code).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'run', 'ops.sock'))).toBe(false);
    const users = json(await ops(['user', 'list', '--tenant', 'demo', '--json'], cliEnv)).items;
    expect(users.map((u: { email: string }) => u.email)).toContain('carol@demo.local');
  });
});
