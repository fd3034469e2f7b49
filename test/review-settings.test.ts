/**
 * Review you can trust (issue 44, point 2, the direct path): an admin's direct intent edit (SPEC's
 * `PUT /sot/devices/<id>/intent`, GraphQL setDeviceIntent) stays possible and is audited as a change that
 * bypassed review; a tenant setting `requireProposals` (REST `/sot/review-settings`) makes it answer 403
 * PROPOSAL_REQUIRED with a detail naming the proposal path, while proposals keep working.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { eventually, gql, rest } from './helpers/http.js';

let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;
let memberToken: string;
let deviceId: string;
let otherDeviceId: string;

async function createDevice(token: string, name: string): Promise<string> {
  const r = await rest(s.url, token).post('/sot/devices', { name });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id;
}

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
  other = await buildTenant(s.app.rt);
  memberToken = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
  deviceId = await createDevice(t.adminToken, 'core-1');
  otherDeviceId = await createDevice(other.adminToken, 'core-1');
}, 180_000);
afterAll(async () => {
  await s?.stop();
});

const AUDIT = `{ auditLog(action: "setDeviceIntent", first: 10) { edges { node { action targetType bypassedReview } } } }`;

describe('the direct intent edit', () => {
  it('is possible by default, and audited as a change that bypassed review', async () => {
    expect((await rest(s.url, memberToken).get('/sot/review-settings')).body).toEqual({ require_proposals: false });
    const r = await rest(s.url, t.adminToken).put(`/sot/devices/${deviceId}/intent`, { config: 'hostname core-1\n' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.version).toBe(1);
    const rows = await eventually(async () => {
      const a = await gql(s.url, t.adminToken, AUDIT);
      return a.data.auditLog.edges.length ? a.data.auditLog.edges : null;
    });
    expect(rows[0].node).toMatchObject({ action: 'setDeviceIntent', bypassedReview: true });
    // A reviewed path is not flagged: opening a proposal is audited without the flag.
    const p = await gql(s.url, memberToken, 'mutation($i: OpenProposalInput!) { openProposal(input: $i) { id } }', {
      i: { deviceId, title: 'MTU', kind: 'config_change', proposedIntent: 'hostname core-1\nmtu 9000\n' },
    });
    expect(p.errors).toBeUndefined();
    const opened = await eventually(async () => {
      const a = await gql(
        s.url,
        t.adminToken,
        '{ auditLog(action: "openProposal", first: 1) { edges { node { bypassedReview } } } }',
      );
      return a.data.auditLog.edges[0]?.node ?? null;
    });
    expect(opened.bypassedReview).toBe(false);
  });

  it('the setting is admin-only, validated, and per tenant', async () => {
    const member = await rest(s.url, memberToken).put('/sot/review-settings', { require_proposals: true });
    expect(member.status).toBe(403);
    const bad = await rest(s.url, t.adminToken).put('/sot/review-settings', { require_proposals: 'yes' });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.detail)).toContain('require_proposals');
    expect((await rest(s.url).get('/sot/review-settings')).status).toBe(401);
    const on = await rest(s.url, t.adminToken).put('/sot/review-settings', { require_proposals: true });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body).toEqual({ require_proposals: true });
    expect((await gql(s.url, memberToken, '{ reviewSettings { requireProposals } }')).data.reviewSettings).toEqual({
      requireProposals: true,
    });
    expect((await rest(s.url, other.adminToken).get('/sot/review-settings')).body).toEqual({
      require_proposals: false,
    });
  });

  it('answers 403 PROPOSAL_REQUIRED with a detail when the tenant requires proposals (REST and GraphQL)', async () => {
    const r = await rest(s.url, t.adminToken).put(`/sot/devices/${deviceId}/intent`, {
      config: 'hostname core-1\nx\n',
    });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('PROPOSAL_REQUIRED');
    expect(r.body.detail).toMatch(/requires a reviewed proposal/);
    expect(r.body.detail).toMatch(/POST \/sot\/proposals/);
    const g = await gql(
      s.url,
      t.adminToken,
      'mutation($i: SetDeviceIntentInput!) { setDeviceIntent(input: $i) { version } }',
      { i: { deviceId, config: 'hostname core-1\ny\n' } },
    );
    expect(g.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'PROPOSAL_REQUIRED' });
    // Nothing changed; the other tenant's direct edit still works; proposals still open.
    expect((await rest(s.url, t.adminToken).get(`/sot/devices/${deviceId}/intent`)).body.version).toBe(1);
    const theirs = await rest(s.url, other.adminToken).put(`/sot/devices/${otherDeviceId}/intent`, { config: 'a\n' });
    expect(theirs.status).toBe(200);
    const proposal = await rest(s.url, memberToken).post('/sot/proposals', {
      device_id: deviceId,
      title: 'Reviewed change',
      kind: 'config_change',
      proposed_intent: 'hostname core-1\nmtu 9216\n',
    });
    expect(proposal.status, JSON.stringify(proposal.body)).toBe(201);
    // Another tenant's device is still NOT_FOUND before anything else.
    const foreign = await rest(s.url, t.adminToken).put(`/sot/devices/${otherDeviceId}/intent`, { config: 'b\n' });
    expect(foreign.status).toBe(404);
    // Turned off again, the direct edit works.
    await rest(s.url, t.adminToken).put('/sot/review-settings', { require_proposals: false });
    const again = await rest(s.url, t.adminToken).put(`/sot/devices/${deviceId}/intent`, {
      config: 'hostname core-1\n2\n',
    });
    expect(again.status).toBe(200);
    expect(again.body.version).toBe(2);
  });
});
