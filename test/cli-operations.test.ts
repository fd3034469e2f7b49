/**
 * The operator CLI with running servers and databases: a minted token announced to a server's live
 * subscribers, ingest-key rotation, the audit trail of CLI changes, `ops cluster join`, `ops db migrate`,
 * and the embedded database under DATA_DIR. Set-up: test/helpers/cli-suite.ts.
 */
import path from 'node:path';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './helpers/server.js';
import { ADMIN_URL, dbUrl } from './helpers/env.js';
import { gql, rest, subscribe, wsClient } from './helpers/http.js';
import { untilSubscribed } from './helpers/pubsub.js';
import { listMigrationFiles } from '../src/db/migrate.js';
import { authenticateIngestKey } from '../src/tenants/ingest-keys.js';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { heartbeatLink } from '../src/clusters/member.js';
import { buildTenant } from './factories.js';
import { createTenant, env, json, ops, s, tmpDir, uniq, useCliSuite } from './helpers/cli-suite.js';

useCliSuite();

// A tenant (made with `ops tenant create`, a CLI process) for the tests that need one but not a fresh one:
// made once, not once per test. The ingest-key test that checks the tenant's first key and the audit
// test make their own.
let shared: Awaited<ReturnType<typeof createTenant>>;
beforeAll(async () => {
  shared = await createTenant();
});

describe('ops and running servers', () => {
  it('tells the server’s live subscribers about a token it mints (through REDIS_URL)', async () => {
    const t = shared;
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
    expect(out).toMatchObject({
      tenant: { id: t.tenant.id, name: t.name },
      id: expect.any(String),
      ingest_key: expect.stringMatching(/^sik_/),
    });
    expect(out.ingest_key).not.toBe(t.ingest_key);
    const until = new Date(out.previous_key_valid_until).getTime();
    expect(Math.abs(until - (s.app.rt.clock.now().getTime() + 24 * 3600_000))).toBeLessThan(120_000);
    const prisma = s.app.rt.prisma;
    expect((await authenticateIngestKey(prisma, out.ingest_key, s.app.rt.clock.now())).tenantId).toBe(t.tenant.id);
    expect((await authenticateIngestKey(prisma, t.ingest_key, s.app.rt.clock.now())).tenantId).toBe(t.tenant.id);
    // Once the grace period is over, the old key no longer authenticates.
    await prisma.ingestKey.updateMany({
      where: { tenantId: t.tenant.id, validUntil: { not: null } },
      data: { validUntil: new Date(s.app.rt.clock.now().getTime() - 1000) },
    });
    await expect(authenticateIngestKey(prisma, t.ingest_key, s.app.rt.clock.now())).rejects.toThrow(
      'Invalid X-Service-Key',
    );
    expect((await authenticateIngestKey(prisma, out.ingest_key, s.app.rt.clock.now())).tenantId).toBe(t.tenant.id);
  });

  it('prints readable text without --json', async () => {
    const t = shared;
    const r = await ops(['ingest-key', 'rotate', '--tenant', t.name], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^New ingest key for tenant "cli-\w+" \(shown only this once\): sik_\S+\nThe previous key keeps working until \d{4}-/,
    );
  });
});

describe('operator audit trail', () => {
  it('records CLI changes in the tenant audit log with credential kind system', async () => {
    const t = await createTenant();
    const tok = json(await ops(['token', 'create', '--email', t.email, '--name', 'audited', '--json'], env));
    json(await ops(['ingest-key', 'rotate', '--tenant', t.name, '--json'], env));
    const r = await gql(
      s.url,
      tok.token,
      '{ auditLog { edges { node { action credentialKind actor { id } targetId } } } }',
    );
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
      const member = shared;
      // The member calls the hub on 127.0.0.1 (allowlisted like a webhook receiver); same APP_SECRET as the server.
      const joinEnv = { ...env, WEBHOOK_URL_ALLOWLIST: '127.0.0.1', APP_SECRET: s.config.appSecret ?? undefined };
      const r = await ops(
        [
          'cluster',
          'join',
          '--hub',
          hub.url,
          '--invite',
          invite.body.token,
          '--name',
          'edge-cli',
          '--tenant',
          member.name,
          '--json',
        ],
        joinEnv,
      );
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
      const again = await ops(
        [
          'cluster',
          'join',
          '--hub',
          hub.url,
          '--invite',
          invite.body.token,
          '--name',
          'edge-cli-2',
          '--tenant',
          member.name,
          '--json',
        ],
        joinEnv,
      );
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
    const out = json(
      await ops(
        [
          'tenant',
          'create',
          '--name',
          'emb',
          '--admin-email',
          'e@emb.test',
          '--admin-password',
          'password-123',
          '--json',
        ],
        embEnv,
      ),
    );
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
