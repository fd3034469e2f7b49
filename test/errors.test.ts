/**
 * One error path: every REST error body is `{code, detail}` with a machine reason from the ErrorCode
 * list of the contract, 422 locations name the REST request, and GraphQL errors carry the same reason
 * as `extensions.reason`.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { call, gql, rest } from './helpers/http.js';
import { loadOpenApi } from '../rest/openapi.js';
import { ERROR_REASONS } from '../src/errors.js';

let s: TestServer;
let t: BuiltTenant;
let memberToken: string;

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
  memberToken = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
});
afterAll(async () => {
  await s?.stop();
});

const REASONS = new Set<string>(ERROR_REASONS);

/** Asserts the one error shape and returns the body. */
function errorBody(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(Object.keys(res.body).sort()).toEqual(['code', 'detail']);
  expect(res.body.code).toBe(code);
  expect(REASONS.has(res.body.code)).toBe(true);
  return res.body as { code: string; detail: any };
}

describe('the ErrorCode list', () => {
  it('is the same in the code and in the contract', () => {
    const schema = loadOpenApi().components.schemas.ErrorCode;
    expect(schema.enum).toEqual([...ERROR_REASONS]);
    expect(new Set(ERROR_REASONS).size).toBe(ERROR_REASONS.length);
  });

  it('is what the shared error schemas use for `code`', () => {
    const { schemas } = loadOpenApi().components;
    for (const name of ['Error', 'ValidationError']) {
      expect(schemas[name].required).toEqual(['code', 'detail']);
      expect(schemas[name].properties.code).toEqual({ $ref: '#/components/schemas/ErrorCode' });
    }
  });
});

describe('REST error bodies', () => {
  it('401 without a credential, and TOKEN_REVOKED for a revoked PAT', async () => {
    const none = errorBody(await rest(s.url).get('/auth/me'), 401, 'UNAUTHENTICATED');
    expect(typeof none.detail).toBe('string');
    const user = await buildUser(s.app.rt, t.tenantId);
    const token = await buildToken(s.app.rt, user);
    const me = await rest(s.url, token).get('/auth/tokens');
    const mine = me.body.find((x: { token_prefix: string }) => token.startsWith(x.token_prefix));
    expect((await rest(s.url, token).delete(`/auth/tokens/${mine.id}`)).status).toBe(204);
    errorBody(await rest(s.url, token).get('/auth/me'), 401, 'TOKEN_REVOKED');
    errorBody(await rest(s.url, 'spat_' + 'x'.repeat(43)).get('/auth/me'), 401, 'TOKEN_INVALID');
  });

  it('403 names the missing scope', async () => {
    const b = errorBody(
      await rest(s.url, memberToken).post('/sot/devices', { name: `d-${crypto.randomUUID()}` }),
      403,
      'SCOPE_ADMIN_REQUIRED',
    );
    expect(b.detail).toBe('This needs the admin role.');
  });

  it('404 for an unknown id (one path for every lookup) and for an unknown route', async () => {
    const id = crypto.randomUUID();
    for (const p of [
      `/proposals/${id}`,
      `/sot/devices/${id}`,
      `/sot/devices/${id}/intent`,
      `/sot/devices/${id}/config`,
      `/alerts/${id}`,
    ]) {
      const b = errorBody(await rest(s.url, t.adminToken).get(p), 404, 'NOT_FOUND');
      expect(b.detail, p).toMatch(/not found\.$/);
    }
    errorBody(await rest(s.url, t.adminToken).post(`/alerts/${id}/acknowledge`), 404, 'NOT_FOUND');
    errorBody(await rest(s.url, t.adminToken).get('/no-such-route'), 404, 'ROUTE_NOT_FOUND');
  });

  it('405 with Allow for a method the path does not have', async () => {
    const res = await rest(s.url, t.adminToken).put('/auth/me', {});
    errorBody(res, 405, 'METHOD_NOT_ALLOWED');
    expect(res.headers.get('allow')).toMatch(/GET/i);
  });

  it('409 carries the reason of the conflict', async () => {
    const list = await rest(s.url, t.adminToken).get('/auth/tokens');
    const b = errorBody(
      await rest(s.url, t.adminToken).post(`/auth/tokens/${list.body[0].id}/reactivate`),
      409,
      'TOKEN_NOT_REVOKED',
    );
    expect(b.detail).toBe('Token is not revoked.');
  });

  it('413 for a body over the limit, 415 for a body that is not JSON', async () => {
    const big = { name: 'x'.repeat(s.config.bodyLimitBytes + 10) };
    errorBody(await rest(s.url, t.adminToken).post('/auth/tokens', big), 413, 'BODY_TOO_LARGE');
    errorBody(
      await call(s.url + '/api/v1', 'POST', '/auth/tokens', {
        token: t.adminToken,
        raw: 'name=x',
        headers: { 'content-type': 'text/plain' },
      }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    errorBody(
      await call(s.url + '/api/v1', 'POST', '/auth/tokens', { token: t.adminToken, raw: '{"name":' }),
      422,
      'INVALID_JSON',
    );
  });

  it('422 names fields of the REST request, from the validator and from the services', async () => {
    const api = rest(s.url, t.adminToken);
    // The contract's validator.
    const q = errorBody(await api.get('/sot/devices?limit=abc'), 422, 'VALIDATION_FAILED');
    expect(q.detail.map((d: { loc: string[] }) => d.loc.join('.'))).toContain('query.limit');
    // A service check on a GraphQL input (`input.deviceId`) → the body field it came from.
    const open = errorBody(
      await api.post('/sot/proposals', {
        title: 't',
        kind: 'config_change',
        device_id: crypto.randomUUID(),
        proposed_intent: 'hostname a',
      }),
      422,
      'VALIDATION_FAILED',
    );
    expect(open.detail).toEqual([{ loc: ['body', 'device_id'], msg: 'names no device of your tenant' }]);
    // camelCase GraphQL input → snake_case body field, on a route whose device id is in the path.
    const device = await api.post('/sot/devices', { name: `d-${crypto.randomUUID().slice(0, 8)}` });
    expect(device.status).toBe(201);
    const future = new Date(Date.now() + 3600_000).toISOString();
    const cfg = errorBody(
      await api.put(`/sot/devices/${device.body.id}/config`, { config: 'hostname a', observed_at: future }),
      422,
      'VALIDATION_FAILED',
    );
    expect(cfg.detail).toEqual([{ loc: ['body', 'observed_at'], msg: 'cannot be in the future' }]);
    // A query parameter checked by the service, not the validator.
    const older = errorBody(await api.get('/proposals?older_than=soon'), 422, 'VALIDATION_FAILED');
    expect(older.detail).toEqual([{ loc: ['query', 'older_than'], msg: expect.any(String) }]);
  });
});

describe('GraphQL errors', () => {
  it('carry extensions.reason beside extensions.code', async () => {
    const scope = await gql(s.url, memberToken, 'mutation { createDevice(input: { name: "x" }) { id } }');
    expect(scope.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'SCOPE_ADMIN_REQUIRED' });
    expect(scope.errors?.[0]?.message).toBe('This needs the admin role.');
    const anon = await gql(s.url, undefined, 'query { me { id } }');
    expect(anon.errors?.[0]?.extensions).toMatchObject({ code: 'UNAUTHENTICATED', reason: 'UNAUTHENTICATED' });
    const list = await rest(s.url, t.adminToken).get('/auth/tokens');
    const conflict = await gql(s.url, t.adminToken, 'mutation($id: ID!) { reactivateToken(id: $id) { id } }', {
      id: list.body[0].id,
    });
    expect(conflict.errors?.[0]?.extensions).toMatchObject({ code: 'CONFLICT', reason: 'TOKEN_NOT_REVOKED' });
    const missing = await gql(s.url, t.adminToken, 'mutation($id: ID!) { acknowledgeAlert(id: $id) { id } }', {
      id: crypto.randomUUID(),
    });
    expect(missing.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', reason: 'NOT_FOUND' });
  });

  it('answer an unknown field inside an input variable with BAD_USER_INPUT naming the field', async () => {
    const created = await gql(
      s.url,
      t.adminToken,
      'mutation($input: CreateAlertRuleInput!) { createAlertRule(input: $input) { id } }',
      {
        input: { name: `r-${crypto.randomUUID()}`, kind: 'MATCH', typeGlob: 'x.*', alertSeverity: 'WARNING' },
      },
    );
    expect(created.errors).toBeUndefined();
    const id = created.data.createAlertRule.id;
    const update =
      'mutation($id: ID!, $input: UpdateAlertRuleInput!) { updateAlertRule(id: $id, input: $input) { id name } }';
    const top = await gql(s.url, t.adminToken, update, { id, input: { kind: 'ABSENCE' } });
    expect(top.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      reason: 'VALIDATION_FAILED',
      fields: [{ loc: ['input', 'kind'], msg: 'is not a field of this request' }],
    });
    expect(top.errors?.[0]?.message).toContain('"kind"');
    expect(top.data ?? null).toBeNull();
    const nested = await gql(s.url, t.adminToken, update, {
      id,
      input: { payloadConditions: [{ path: 'a', op: 'EQ', value: 1, sweep: true }] },
    });
    expect(nested.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      reason: 'VALIDATION_FAILED',
      fields: [{ loc: ['input', 'payloadConditions', '0', 'sweep'] }],
    });
    const wrongType = await gql(s.url, t.adminToken, update, { id, input: { name: 5 } });
    expect(wrongType.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      fields: [{ loc: ['input', 'name'] }],
    });
    const missing = await gql(s.url, t.adminToken, update, { id, input: { payloadConditions: [{ path: 'a' }] } });
    expect(missing.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      fields: [{ loc: ['input', 'payloadConditions', '0', 'op'], msg: 'is required' }],
    });
    // Nothing was changed by the refused calls.
    const after = await gql(s.url, t.adminToken, 'query($id: ID!) { alertRule(id: $id) { id kind } }', { id });
    expect(after.data.alertRule.kind).toBe('MATCH');
  });

  it('answer a body that is not JSON with 415 and the reason', async () => {
    const res = await call(s.url, 'POST', '/graphql', {
      raw: 'query=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body.errors[0].extensions).toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      reason: 'UNSUPPORTED_MEDIA_TYPE',
    });
  });
});
