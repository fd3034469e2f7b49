import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { ADMIN_URL, REDIS_URL, dbUrl } from './helpers/env.js';
import { gql, rest, subscribe, wsClient } from './helpers/http.js';
import { npmOps, ops as opsProcess, opsInProcess, type CliResult } from './helpers/cli.js';
import { untilSubscribed } from './helpers/pubsub.js';
import { listMigrationFiles } from '../src/db/migrate.js';
import { authenticateIngestKey } from '../src/tenants/ingest-keys.js';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { heartbeatLink } from '../src/clusters/member.js';
import { buildTenant } from './factories.js';

// Commands run in this process through `runCli`, the function the `ops` entry point runs; a few smoke
// tests start the real process: exit 0 with pure JSON stdout (through npm), exit 1 and exit 2.
const ops = opsInProcess;

let s: TestServer;
let env: Record<string, string | undefined>;
const tmpDirs: string[] = [];

function uniq(): string {
  return crypto.randomBytes(4).toString('hex');
}

function tmpDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-cli-'));
  tmpDirs.push(d);
  return d;
}

/** Parses stdout as exactly one JSON document (fails on any extra output). */
function json(r: CliResult): any {
  expect(r.stderr).not.toMatch(/^Error/m);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

async function login(email: string, password: string) {
  return rest(s.url).post('/auth/login', { email, password });
}

async function createTenant(name = `cli-${uniq()}`) {
  const password = 'pw-' + uniq() + uniq();
  const email = `admin-${uniq()}@${name}.test`;
  const out = json(await ops(['tenant', 'create', '--name', name, '--admin-email', email, '--admin-password', password, '--json'], env));
  return { ...out, name, email, password };
}

beforeAll(async () => {
  // Allowlisted loopback: the member side of `ops cluster join` calls a hub on 127.0.0.1.
  s = await startTestServer({ env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1' } });
  env = { DATABASE_URL: s.db.url, REDIS_URL, REDIS_PREFIX: s.config.redisPrefix, DATA_DIR: tmpDir() };
});
afterAll(async () => {
  await s?.stop();
  for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('ops tenant create', () => {
  it('prints only the tenant, admin and ingest key as JSON through npm run --silent, and the admin can log in (process)', async () => {
    const name = `cli-${uniq()}`;
    const r = await npmOps(['tenant', 'create', '--name', name, '--admin-email', `boss@${name}.test`, '--admin-password', 'correct-horse-1', '--json'], env);
    const out = json(r);
    expect(Object.keys(out).sort()).toEqual(['admin', 'ingest_key', 'tenant']);
    expect(out.tenant).toEqual({ id: expect.any(String), name });
    expect(out.admin).toEqual({ id: expect.any(String), email: `boss@${name}.test` });
    expect(out.ingest_key).toMatch(/^sik_[\w-]{40,}$/);
    const li = await login(`boss@${name}.test`, 'correct-horse-1');
    expect(li.status).toBe(200);
    const me = await gql(s.url, li.body.access_token, '{ me { email role tenant { name } } }');
    expect(me.data?.me).toEqual({ email: `boss@${name}.test`, role: 'ADMIN', tenant: { name } });
  });

  it('exits 1 with nothing on stdout when the tenant name is taken (process)', async () => {
    const t = await createTenant();
    const r = await opsProcess(['tenant', 'create', '--name', t.name, '--admin-email', `other-${uniq()}@x.test`, '--admin-password', 'password-123', '--json'], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`A tenant named "${t.name}" already exists`);
  });

  it('exits 2 with the usage when required options are missing', async () => {
    const r = await ops(['tenant', 'create', '--name', 'x', '--json'], env);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Missing --admin-email, --admin-password');
    expect(r.stderr).toContain('Usage: npm run --silent ops -- tenant create');
  });

  it('exits 2 naming the options whose values are invalid', async () => {
    const r = await ops(['tenant', 'create', '--name', `cli-${uniq()}`, '--admin-email', 'not-an-email', '--admin-password', 'short', '--json'], env);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--admin-email: must be an email address');
    expect(r.stderr).toContain('--admin-password: must be at least 8 characters');
  });
});

describe('ops usage errors', () => {
  it('exits 2 for an unknown command, listing the commands', async () => {
    const r = await ops(['tenant', 'delete', '--name', 'x'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Unknown command "tenant delete"');
    for (const c of ['tenant create', 'user create', 'token create', 'ingest-key rotate', 'db migrate']) expect(r.stderr).toContain(c);
  });

  it('exits 2 for an unknown option (process)', async () => {
    const r = await opsProcess(['db', 'migrate', '--force'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Unknown option '--force'");
  });

  it('exits 2 naming PORT when the configuration is invalid', async () => {
    const r = await ops(['db', 'migrate'], { ...env, PORT: 'abc' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('PORT');
  });
});

describe('ops user create', () => {
  it('creates a member who can log in with the password', async () => {
    const t = await createTenant();
    const email = `m-${uniq()}@x.test`;
    const out = json(await ops(['user', 'create', '--tenant', t.name, '--email', email, '--password', 'member-pass-1', '--role', 'member', '--json'], env));
    expect(out).toEqual({ id: expect.any(String), email, role: 'member', kind: 'human', tenant: { id: t.tenant.id, name: t.name } });
    const li = await login(email, 'member-pass-1');
    expect(li.status).toBe(200);
    const me = await rest(s.url, li.body.access_token).get('/auth/me');
    expect(me.body).toMatchObject({ id: out.id, role: 'member', tenant: { id: t.tenant.id } });
  });

  it('creates a service user, which cannot log in with a password', async () => {
    const t = await createTenant();
    const email = `svc-${uniq()}@x.test`;
    const out = json(await ops(['user', 'create', '--tenant', t.tenant.id, '--email', email, '--role', 'member', '--service', '--json'], env));
    expect(out).toMatchObject({ email, kind: 'service', role: 'member' });
    expect((await login(email, 'anything-at-all')).status).toBe(401);
  });

  it('exits 2 for a service user with a password and for an unknown role', async () => {
    const t = await createTenant();
    const [withPassword, badRole] = await Promise.all([
      ops(['user', 'create', '--tenant', t.name, '--email', `s-${uniq()}@x.test`, '--role', 'member', '--service', '--password', 'password-123', '--json'], env),
      ops(['user', 'create', '--tenant', t.name, '--email', `r-${uniq()}@x.test`, '--role', 'owner', '--json'], env),
    ]);
    expect(withPassword.code).toBe(2);
    expect(withPassword.stderr).toContain('--password: service users cannot have a password');
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain('--role must be admin or member');
  });

  it('exits 1 for an unknown tenant', async () => {
    const r = await ops(['user', 'create', '--tenant', `nope-${uniq()}`, '--email', `x-${uniq()}@x.test`, '--role', 'member', '--json'], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/Tenant "nope-\w+" not found/);
  });
});

describe('ops token create', () => {
  it('mints a PAT shown once that authenticates as the user', async () => {
    const t = await createTenant();
    const out = json(await ops(['token', 'create', '--email', t.email, '--name', 'deploy-bot', '--json'], env));
    expect(Object.keys(out).sort()).toEqual(['id', 'token']);
    expect(out.token).toMatch(/^spat_/);
    const me = await rest(s.url, out.token).get('/auth/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: t.email, credential_kind: 'pat' });
    const list = await rest(s.url, out.token).get('/auth/tokens');
    const row = list.body.find((x: { id: string }) => x.id === out.id);
    expect(row).toMatchObject({ name: 'deploy-bot', status: 'active', expires_at: null });
    expect(JSON.stringify(list.body)).not.toContain(out.token);
  });

  it('mints for a service user with an expiry in days', async () => {
    const t = await createTenant();
    const email = `svc-${uniq()}@x.test`;
    json(await ops(['user', 'create', '--tenant', t.name, '--email', email, '--role', 'member', '--service', '--json'], env));
    const out = json(await ops(['token', 'create', '--email', email, '--name', 'ci', '--expires-in-days', '30', '--json'], env));
    const list = await rest(s.url, out.token).get('/auth/tokens');
    const expiresAt = new Date(list.body.find((x: { id: string }) => x.id === out.id).expires_at).getTime();
    expect(Math.abs(expiresAt - (Date.now() + 30 * 86400_000))).toBeLessThan(120_000);
  });

  it('exits 2 naming --expires-in-days for 0, 4000 and a non-number', async () => {
    const t = await createTenant();
    const results = await Promise.all(['0', '4000', 'x'].map((d) => ops(['token', 'create', '--email', t.email, '--name', 'n', '--expires-in-days', d, '--json'], env)));
    for (const r of results) {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('--expires-in-days');
    }
  });

  it('exits 1 for an unknown email', async () => {
    const r = await ops(['token', 'create', '--email', `ghost-${uniq()}@x.test`, '--name', 'n', '--json'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/User with email ghost-\w+@x\.test not found/);
  });
});

describe('ops and running servers', () => {
  it('tells the server’s live subscribers about a token it mints (through REDIS_URL)', async () => {
    const t = await createTenant();
    const first = json(await ops(['token', 'create', '--email', t.email, '--name', 'watcher', '--json'], env));
    const client = wsClient(s.url, first.token);
    const sub = subscribe(client, 'subscription { tokenChanged { id change } }');
    await untilSubscribed(s, 'tokenChanged', t.tenant.id);
    const second = json(await ops(['token', 'create', '--email', t.email, '--name', 'announced', '--json'], env));
    expect((await sub.next(10_000)).data.tokenChanged).toEqual({ id: second.id, change: 'created' });
    sub.dispose();
    await client.dispose();
  });
});

describe('ops ingest-key rotate', () => {
  it('prints the new key and keeps the old key valid for 24 hours', async () => {
    const t = await createTenant();
    const out = json(await ops(['ingest-key', 'rotate', '--tenant', t.name, '--json'], env));
    expect(out).toMatchObject({ tenant: { id: t.tenant.id, name: t.name }, id: expect.any(String), ingest_key: expect.stringMatching(/^sik_/) });
    expect(out.ingest_key).not.toBe(t.ingest_key);
    const until = new Date(out.previous_key_valid_until).getTime();
    expect(Math.abs(until - (Date.now() + 24 * 3600_000))).toBeLessThan(120_000);
    const prisma = s.app.rt.prisma;
    expect((await authenticateIngestKey(prisma, out.ingest_key)).tenantId).toBe(t.tenant.id);
    expect((await authenticateIngestKey(prisma, t.ingest_key)).tenantId).toBe(t.tenant.id);
    // Once the grace period is over, the old key no longer authenticates.
    await prisma.ingestKey.updateMany({ where: { tenantId: t.tenant.id, validUntil: { not: null } }, data: { validUntil: new Date(Date.now() - 1000) } });
    await expect(authenticateIngestKey(prisma, t.ingest_key)).rejects.toThrow('Invalid X-Service-Key');
    expect((await authenticateIngestKey(prisma, out.ingest_key)).tenantId).toBe(t.tenant.id);
  });

  it('prints readable text without --json', async () => {
    const t = await createTenant();
    const r = await ops(['ingest-key', 'rotate', '--tenant', t.name], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^New ingest key for tenant "cli-\w+" \(shown only this once\): sik_\S+\nThe previous key keeps working until \d{4}-/);
  });
});

describe('operator audit trail', () => {
  it('records CLI changes in the tenant audit log with credential kind system', async () => {
    const t = await createTenant();
    const tok = json(await ops(['token', 'create', '--email', t.email, '--name', 'audited', '--json'], env));
    json(await ops(['ingest-key', 'rotate', '--tenant', t.name, '--json'], env));
    const r = await gql(s.url, tok.token, '{ auditLog { edges { node { action credentialKind actor { id } targetId } } } }');
    const rows = r.data.auditLog.edges.map((e: { node: unknown }) => e.node);
    expect(rows).toEqual(
      expect.arrayContaining([
        { action: 'createTenant', credentialKind: 'SYSTEM', actor: null, targetId: t.tenant.id },
        { action: 'createToken', credentialKind: 'SYSTEM', actor: null, targetId: tok.id },
        expect.objectContaining({ action: 'rotateIngestKey', credentialKind: 'SYSTEM', actor: null }),
      ]),
    );
  });
});

describe('ops cluster join', () => {
  it("joins a second running server as a member cluster; the credential is sealed with the server's key and never printed", async () => {
    const hub = await startTestServer();
    try {
      const ht = await buildTenant(hub.app.rt);
      const invite = await rest(hub.url, ht.adminToken).post('/clusters/invite', { hub_url: hub.url });
      expect(invite.status).toBe(201);
      const member = await createTenant();
      // The member calls the hub on 127.0.0.1 (allowlisted like a webhook receiver); same APP_SECRET as the server.
      const joinEnv = { ...env, WEBHOOK_URL_ALLOWLIST: '127.0.0.1', APP_SECRET: s.config.appSecret ?? undefined };
      const r = await ops(['cluster', 'join', '--hub', hub.url, '--invite', invite.body.token, '--name', 'edge-cli', '--tenant', member.name, '--json'], joinEnv);
      const out = json(r);
      expect(out).toMatchObject({ hub: hub.url, name: 'edge-cli' });
      expect(r.stdout + r.stderr).not.toMatch(/scc_/);
      const onHub = await rest(hub.url, ht.adminToken).get(`/clusters/${out.cluster_id}`);
      expect(onHub.body).toMatchObject({ name: 'edge-cli', status: 'connected' });
      // The running member server opens what the CLI sealed, and its heartbeat reaches the hub.
      const link = await s.app.rt.prisma.clusterLink.findFirstOrThrow({ where: { tenantId: member.tenant.id } });
      expect(s.app.rt.secretBox.open(link.credentialCiphertext)).toMatch(/^scc_/);
      await heartbeatLink(s.app.rt, link);
      const after = await s.app.rt.prisma.clusterLink.findUniqueOrThrow({ where: { id: link.id } });
      expect(after.lastError).toBeNull();
      expect(after.lastHeartbeatAt!.getTime()).toBeGreaterThan(link.lastHeartbeatAt!.getTime());
      // The invite was single-use: a second join with it exits 1 and stores nothing new.
      const again = await ops(['cluster', 'join', '--hub', hub.url, '--invite', invite.body.token, '--name', 'edge-cli-2', '--tenant', member.name, '--json'], joinEnv);
      expect(again.code).toBe(1);
      expect(again.stdout).toBe('');
    } finally {
      await hub.stop();
    }
  });
});

describe('ops db migrate', () => {
  it('applies every migration to an empty database, then reports it up to date', async () => {
    const name = `ops_cli_${uniq()}`;
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      const dbEnv = { ...env, DATABASE_URL: dbUrl(name) };
      const first = json(await ops(['db', 'migrate', '--json'], dbEnv));
      expect(first.applied).toEqual(listMigrationFiles().map((m) => m.name));
      const again = await ops(['db', 'migrate'], dbEnv);
      expect(again.code).toBe(0);
      expect(again.stdout.trim()).toBe('The database is up to date.');
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});

describe('ops on the embedded database', () => {
  it('works under DATA_DIR without DATABASE_URL, and explains when another process holds it', async () => {
    const dataDir = tmpDir();
    const embEnv = { DATABASE_URL: undefined, REDIS_URL: undefined, DATA_DIR: dataDir };
    const out = json(await ops(['tenant', 'create', '--name', 'emb', '--admin-email', 'e@emb.test', '--admin-password', 'password-123', '--json'], embEnv));
    expect(out.tenant.name).toBe('emb');

    const held = await startEmbeddedPostgres(path.join(dataDir, 'pglite'));
    try {
      const r = await ops(['ingest-key', 'rotate', '--tenant', 'emb', '--json'], embEnv);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`is open in process ${process.pid} (probably the running server)`);
      expect(r.stderr).toContain('DATABASE_URL');
    } finally {
      await held.stop();
    }
    json(await ops(['ingest-key', 'rotate', '--tenant', 'emb', '--json'], embEnv));
  }, 180_000);
});
