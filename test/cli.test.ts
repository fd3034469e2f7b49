/**
 * The operator CLI against a real server's database: tenant, user and token creation, usage errors with
 * exit code 2 naming the option, exit 1 with nothing on stdout; a few smoke tests as a real process.
 * Running servers, ingest keys, audit, clusters, migrations and the embedded database:
 * test/cli-operations.test.ts. Set-up: test/helpers/cli-suite.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { gql, rest } from './helpers/http.js';
import { npmOps, ops as opsProcess } from './helpers/cli.js';
import { createTenant, env, json, login, ops, s, uniq, useCliSuite } from './helpers/cli-suite.js';

useCliSuite();

// The tenant (made with `ops tenant create`, a CLI process) that the tests of users and tokens work in:
// made once, not once per test, since each test makes users, tokens and names of its own (uniq()).
let shared: Awaited<ReturnType<typeof createTenant>>;
beforeAll(async () => {
  shared = await createTenant();
});

describe('ops tenant create', () => {
  it('prints only the tenant, admin and ingest key as JSON through npm run --silent, and the admin can log in (process)', async () => {
    const name = `cli-${uniq()}`;
    const r = await npmOps(
      [
        'tenant',
        'create',
        '--name',
        name,
        '--admin-email',
        `boss@${name}.test`,
        '--admin-password',
        'correct-horse-1',
        '--json',
      ],
      env,
    );
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
    const t = shared;
    const r = await opsProcess(
      [
        'tenant',
        'create',
        '--name',
        t.name,
        '--admin-email',
        `other-${uniq()}@x.test`,
        '--admin-password',
        'password-123',
        '--json',
      ],
      env,
    );
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
    const r = await ops(
      [
        'tenant',
        'create',
        '--name',
        `cli-${uniq()}`,
        '--admin-email',
        'not-an-email',
        '--admin-password',
        'short',
        '--json',
      ],
      env,
    );
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
    for (const c of ['tenant create', 'user create', 'token create', 'ingest-key rotate', 'db migrate'])
      expect(r.stderr).toContain(c);
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
    const t = shared;
    const email = `m-${uniq()}@x.test`;
    const out = json(
      await ops(
        [
          'user',
          'create',
          '--tenant',
          t.name,
          '--email',
          email,
          '--password',
          'member-pass-1',
          '--role',
          'member',
          '--json',
        ],
        env,
      ),
    );
    expect(out).toEqual({
      id: expect.any(String),
      email,
      role: 'member',
      kind: 'human',
      tenant: { id: t.tenant.id, name: t.name },
    });
    const li = await login(email, 'member-pass-1');
    expect(li.status).toBe(200);
    const me = await rest(s.url, li.body.access_token).get('/auth/me');
    expect(me.body).toMatchObject({ id: out.id, role: 'member', tenant: { id: t.tenant.id } });
  });

  it('creates a service user, which cannot log in with a password', async () => {
    const t = shared;
    const email = `svc-${uniq()}@x.test`;
    const out = json(
      await ops(
        ['user', 'create', '--tenant', t.tenant.id, '--email', email, '--role', 'member', '--service', '--json'],
        env,
      ),
    );
    expect(out).toMatchObject({ email, kind: 'service', role: 'member' });
    expect((await login(email, 'anything-at-all')).status).toBe(401);
  });

  it('exits 2 for a service user with a password and for an unknown role', async () => {
    const t = shared;
    const [withPassword, badRole] = await Promise.all([
      ops(
        [
          'user',
          'create',
          '--tenant',
          t.name,
          '--email',
          `s-${uniq()}@x.test`,
          '--role',
          'member',
          '--service',
          '--password',
          'password-123',
          '--json',
        ],
        env,
      ),
      ops(['user', 'create', '--tenant', t.name, '--email', `r-${uniq()}@x.test`, '--role', 'owner', '--json'], env),
    ]);
    expect(withPassword.code).toBe(2);
    expect(withPassword.stderr).toContain('--password: service users cannot have a password');
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain('--role must be admin or member');
  });

  it('exits 1 for an unknown tenant', async () => {
    const r = await ops(
      ['user', 'create', '--tenant', `nope-${uniq()}`, '--email', `x-${uniq()}@x.test`, '--role', 'member', '--json'],
      env,
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/Tenant "nope-\w+" not found/);
  });
});

describe('ops token create', () => {
  it('mints a PAT shown once that authenticates as the user', async () => {
    const t = shared;
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
    const t = shared;
    const email = `svc-${uniq()}@x.test`;
    json(
      await ops(
        ['user', 'create', '--tenant', t.name, '--email', email, '--role', 'member', '--service', '--json'],
        env,
      ),
    );
    const out = json(
      await ops(['token', 'create', '--email', email, '--name', 'ci', '--expires-in-days', '30', '--json'], env),
    );
    const list = await rest(s.url, out.token).get('/auth/tokens');
    const expiresAt = new Date(list.body.find((x: { id: string }) => x.id === out.id).expires_at).getTime();
    expect(Math.abs(expiresAt - (s.app.rt.clock.now().getTime() + 30 * 86400_000))).toBeLessThan(120_000);
  });

  it('exits 2 naming --expires-in-days for 0, 4000 and a non-number', async () => {
    const t = shared;
    const results = await Promise.all(
      ['0', '4000', 'x'].map((d) =>
        ops(['token', 'create', '--email', t.email, '--name', 'n', '--expires-in-days', d, '--json'], env),
      ),
    );
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
