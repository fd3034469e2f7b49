import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildUser, type BuiltTenant } from './factories.js';
import { gql, rest } from './helpers/http.js';
import { rotateIngestKey } from '../src/tenants/ingest-keys.js';
import { tokenHash } from '../src/secrets.js';

let s: TestServer;
let t: BuiltTenant;
let db: pg.Client;

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
  db = new pg.Client({ connectionString: s.db.url });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await s?.stop();
});

/** Every text-like column of every table in the database (json, arrays and enums included). */
async function textColumns(): Promise<Array<{ table: string; column: string }>> {
  const { rows } = await db.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema()
        AND data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'USER-DEFINED', 'bytea')
      ORDER BY table_name, column_name`,
  );
  return rows.map((r) => ({ table: r.table_name, column: r.column_name }));
}

/** `table.column` of every cell containing `needle`. */
async function whereStored(needle: string): Promise<string[]> {
  const hits: string[] = [];
  for (const { table, column } of await textColumns()) {
    const q = `SELECT count(*)::int AS n FROM "${table}" WHERE position($1 in "${column}"::text) > 0`;
    const { rows } = await db.query<{ n: number }>(q, [needle]);
    if (rows[0].n > 0) hits.push(`${table}.${column}`);
  }
  return hits;
}

describe('secrets at rest', () => {
  it('stores no cleartext PAT, ingest key, password or session JWT in any column', async () => {
    const secrets: Record<string, string> = {
      adminPassword: t.adminPassword,
      adminPat: t.adminToken,
      ingestKey: t.ingestKey,
    };
    const member = await buildUser(s.app.rt, t.tenantId, { password: 'member-secret-pass-1' });
    secrets.memberPassword = member.password!;

    const minted = await rest(s.url, t.adminToken).post('/auth/tokens', { name: 'scan', expires_in_days: 30 });
    secrets.mintedPat = minted.body.token;
    const rotated = await rest(s.url, t.adminToken).post(`/auth/tokens/${minted.body.id}/rotate`);
    secrets.rotatedPat = rotated.body.token;
    const svc = await buildUser(s.app.rt, t.tenantId, { kind: 'service' });
    secrets.servicePat = (
      await rest(s.url, t.adminToken).post('/auth/tokens', { name: 'svc', user_id: svc.id })
    ).body.token;
    const login = await rest(s.url).post('/auth/login', { email: member.email, password: member.password });
    secrets.sessionJwt = login.body.access_token;
    const created = await gql(s.url, t.adminToken, 'mutation($i: CreateUserInput!) { createUser(input: $i) { id } }', {
      i: { email: 'scan-target@example.test', password: 'created-by-admin-pass' },
    });
    expect(created.data.createUser.id).toBeTruthy();
    secrets.createdPassword = 'created-by-admin-pass';
    secrets.rotatedIngestKey = (await rotateIngestKey(s.app.rt.prisma, t.tenantId, s.app.rt.clock.now())).cleartext;

    for (const v of Object.values(secrets)) expect(v.length).toBeGreaterThan(8);
    const found: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(secrets)) {
      const hits = await whereStored(value);
      if (hits.length) found[name] = hits;
    }
    expect(found).toEqual({});
  });

  it('keeps only a hash and a short prefix of a PAT, which the scan does find', async () => {
    const minted = await rest(s.url, t.adminToken).post('/auth/tokens', { name: 'control' });
    const cleartext: string = minted.body.token;
    // Positive control: the same scan sees what is stored, so an empty result above means something.
    expect(await whereStored(tokenHash(cleartext))).toEqual(['AccessToken.tokenHash']);
    expect(await whereStored(minted.body.id)).toContain('AccessToken.id');
    const row = await s.app.rt.prisma.accessToken.findUniqueOrThrow({ where: { id: minted.body.id } });
    expect(cleartext.startsWith(row.tokenPrefix)).toBe(true);
    expect(row.tokenPrefix.length).toBeLessThanOrEqual(12);
  });

  it('stores passwords as salted scrypt hashes', async () => {
    const [a, b] = await Promise.all([
      buildUser(s.app.rt, t.tenantId, { password: 'same-password-1' }),
      buildUser(s.app.rt, t.tenantId, { password: 'same-password-1' }),
    ]);
    const rows = await s.app.rt.prisma.user.findMany({ where: { id: { in: [a.id, b.id] } } });
    for (const r of rows) expect(r.passwordHash).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(rows[0].passwordHash).not.toBe(rows[1].passwordHash);
  });
});
