/**
 * API evolution (docs/api-evolution.md) against a real server: the deprecated aliases `Query.webhook(id:)`
 * and `Mutation.deleteBudget` answer as their replacements do and introspection marks them deprecated;
 * a deprecated REST operation (`/integrations/config/{provider}`) answers with RFC 9745 `Deprecation`,
 * RFC 8594 `Sunset` and a successor `Link`, and its replacement without them; `GET /api/v1/version` and
 * GraphQL `serverInfo` report the release, the served schema's hash and the enabled features.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { gql, rest } from './helpers/http.js';
import { REPO_ROOT } from './helpers/cli.js';

let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1' } });
  t = await buildTenant(s.app.rt);
  other = await buildTenant(s.app.rt);
}, 120_000);
afterAll(async () => {
  await s?.stop();
});

const deprecation = async (type: string, field: string) => {
  const r = await gql(
    s.url,
    t.adminToken,
    `query($t: String!) { __type(name: $t) { fields(includeDeprecated: true) { name isDeprecated deprecationReason } } }`,
    { t: type },
  );
  return (r.data.__type.fields as Array<{ name: string; isDeprecated: boolean; deprecationReason: string }>).find(
    (f) => f.name === field,
  );
};

describe('deprecated GraphQL aliases', () => {
  it('Query.webhook(id:) answers as outboundWebhook(id:), marked deprecated with a removal date', async () => {
    const created = await gql(
      s.url,
      t.adminToken,
      'mutation($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { id } }',
      {
        input: { name: 'old name', url: 'http://127.0.0.1:9/hook', triggers: [{ on: 'EVENT', typeGlob: 'deploy.*' }] },
      },
    );
    expect(created.errors).toBeUndefined();
    const id = created.data.createOutboundWebhook.id as string;
    const fields = 'id name url enabled';
    const [old, current] = await Promise.all([
      gql(s.url, t.adminToken, `query($id: ID!) { webhook(id: $id) { ${fields} } }`, { id }),
      gql(s.url, t.adminToken, `query($id: ID!) { outboundWebhook(id: $id) { ${fields} } }`, { id }),
    ]);
    expect(old.errors).toBeUndefined();
    expect(old.data.webhook).toEqual(current.data.outboundWebhook);
    expect(old.data.webhook).toMatchObject({ id, name: 'old name' });

    const marked = await deprecation('Query', 'webhook');
    expect(marked?.isDeprecated).toBe(true);
    expect(marked?.deprecationReason).toMatch(/outboundWebhook\(id:\).*removal after \d{4}-\d{2}-\d{2}/);

    // Another tenant's webhook is NOT_FOUND through the alias too.
    const foreign = await gql(s.url, other.adminToken, `query($id: ID!) { webhook(id: $id) { id } }`, { id });
    expect(foreign.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('Mutation.deleteBudget clears the budget as clearBudget does, admin only, marked deprecated', async () => {
    const set = await gql(s.url, t.adminToken, 'mutation { setBudget(input: { amount: "100" }) { month } }');
    expect(set.errors).toBeUndefined();
    const member = await buildUser(s.app.rt, t.tenantId);
    const memberToken = await buildToken(s.app.rt, member);
    const denied = await gql(s.url, memberToken, 'mutation { deleteBudget }');
    expect(denied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

    const first = await gql(s.url, t.adminToken, 'mutation { deleteBudget }');
    expect(first.errors).toBeUndefined();
    expect(first.data.deleteBudget).toBe(true);
    const budget = await gql(s.url, t.adminToken, '{ billing { budget { month } } }');
    expect(budget.data.billing.budget).toBeNull();
    // As clearBudget: false when there was none.
    expect((await gql(s.url, t.adminToken, 'mutation { deleteBudget }')).data.deleteBudget).toBe(false);
    expect((await gql(s.url, t.adminToken, 'mutation { clearBudget }')).data.clearBudget).toBe(false);

    const marked = await deprecation('Mutation', 'deleteBudget');
    expect(marked?.deprecationReason).toMatch(/clearBudget.*removal after \d{4}-\d{2}-\d{2}/);
  });
});

describe('deprecated REST operations', () => {
  it('answer with Deprecation, Sunset and a successor Link; the replacement answers the same body without them', async () => {
    const api = rest(s.url, t.adminToken);
    const put = await api.put('/integrations/config/webhook', { config: {} });
    expect(put.status).toBe(200);
    expect(put.headers.get('deprecation')).toBe(`@${Date.parse('2026-11-28T00:00:00Z') / 1000}`);
    expect(put.headers.get('sunset')).toBe('Mon, 01 Mar 2027 00:00:00 GMT');
    expect(put.headers.get('link')).toBe('</api/v1/integration-configs/webhook>; rel="successor-version"');

    const [old, current] = await Promise.all([
      api.get('/integrations/config/webhook'),
      api.get('/integration-configs/webhook'),
    ]);
    expect(old.status).toBe(200);
    expect(current.status).toBe(200);
    expect(old.body).toEqual(current.body);
    expect(old.headers.get('deprecation')).toBeTruthy();
    expect(current.headers.get('deprecation')).toBeNull();
    expect(current.headers.get('sunset')).toBeNull();

    // Errors of a deprecated operation carry the headers too, so a client sees them whatever it sent.
    const unauthenticated = await rest(s.url).get('/integrations/config/webhook');
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('sunset')).toBe('Mon, 01 Mar 2027 00:00:00 GMT');
    expect((await api.delete('/integration-configs/webhook')).status).toBe(204);
  });

  it('are deprecated in the contract with x-deprecated-at and an x-sunset at least 90 days later', async () => {
    const doc = (await (await fetch(`${s.url}/openapi.json`)).json()) as Record<string, any>;
    const deprecated: string[] = [];
    for (const [p, item] of Object.entries(doc.paths as Record<string, Record<string, any>>))
      for (const [method, op] of Object.entries(item)) {
        if (!op?.deprecated) continue;
        deprecated.push(`${method.toUpperCase()} ${p}`);
        const days = (Date.parse(op['x-sunset']) - Date.parse(op['x-deprecated-at'])) / 86_400_000;
        expect(days, `${method} ${p}`).toBeGreaterThanOrEqual(90);
      }
    expect(deprecated.sort()).toEqual([
      'DELETE /integrations/config/{provider}',
      'GET /integrations/config/{provider}',
      'PUT /integrations/config/{provider}',
    ]);
  });
});

describe('the served contract', () => {
  it('has an absolute server URL, the request origin, so clients resolve paths without a base URL', async () => {
    const doc = (await (await fetch(`${s.url}/openapi.json`)).json()) as Record<string, any>;
    expect(doc.servers).toEqual([{ url: `${s.url}/api/v1`, 'x-internal': false }]);
  });

  it("declares billing's group_by enum once, as a component both the parameter and the response use", async () => {
    const doc = (await (await fetch(`${s.url}/openapi.json`)).json()) as Record<string, any>;
    const param = (doc.paths['/billing/breakdown'].get.parameters as Array<any>).find((p) => p.name === 'group_by');
    expect(param.schema.$ref).toBe('#/components/schemas/BillingGroupBy');
    expect(doc.components.schemas.BillingBreakdown.properties.group_by).toEqual({
      $ref: '#/components/schemas/BillingGroupBy',
    });
    const res = await rest(s.url, t.adminToken).get('/billing/breakdown?group_by=sku');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.group_by).toBe('sku');
    expect((await rest(s.url, t.adminToken).get('/billing/breakdown')).body.group_by).toBe('source');
    expect((await rest(s.url, t.adminToken).get('/billing/breakdown?group_by=colour')).status).toBe(422);
  });
});

describe('the release this server runs', () => {
  it('GET /api/v1/version and serverInfo report the version, the served schema hash and the features', async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    const r = await rest(s.url, t.adminToken).get('/version');
    expect(r.status).toBe(200);
    expect(r.body.version).toBe(pkg.version);
    // The hash of schema.graphql's SDL (the committed print, without its header comment).
    const sdl = fs.readFileSync(path.join(REPO_ROOT, 'schema.graphql'), 'utf8').replace(/^#.*\n\n/, '');
    expect(r.body.schema_hash).toBe(`sha256:${createHash('sha256').update(sdl.replace(/\n$/, '')).digest('hex')}`);
    expect(r.body.features).toContain('integration:pagerduty');
    expect(r.body.features).toContain('assistant:builtin');
    expect(r.body.features).toEqual([...r.body.features].sort());

    const g = await gql(s.url, t.adminToken, '{ serverInfo { version schemaHash features } }');
    expect(g.data.serverInfo).toEqual({
      version: pkg.version,
      schemaHash: r.body.schema_hash,
      features: r.body.features,
    });
    const doc = (await (await fetch(`${s.url}/openapi.json`)).json()) as { info: { version: string } };
    expect(doc.info.version).toBe(pkg.version);
    // CHANGELOG.md has this release's section.
    expect(fs.readFileSync(path.join(REPO_ROOT, 'CHANGELOG.md'), 'utf8')).toMatch(
      new RegExp(`^## \\[${pkg.version.replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'),
    );
  });

  it('needs a credential', async () => {
    expect((await rest(s.url).get('/version')).status).toBe(401);
    const g = await gql(s.url, undefined, '{ serverInfo { version } }');
    expect(g.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
