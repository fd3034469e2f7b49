/**
 * Review you can trust (issue 44, point 2, server side): the reviewer gets the proposal's reason,
 * proposer and revision, and a unified diff of the proposed intent against the device's current intent
 * (GraphQL `diff`, REST `diff`), made by the same diff as drift.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { gql, rest } from './helpers/http.js';

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

const REVIEW = `query($id: ID!) { proposal(id: $id) { reason revision proposer { id } proposedIntent diff } }`;

async function device(name: string, intent?: string): Promise<string> {
  const d = await gql(s.url, t.adminToken, 'mutation($i: DeviceInput!) { createDevice(input: $i) { id } }', {
    i: { name },
  });
  const id = d.data.createDevice.id;
  if (intent !== undefined)
    await gql(s.url, t.adminToken, 'mutation($i: SetDeviceIntentInput!) { setDeviceIntent(input: $i) { id } }', {
      i: { deviceId: id, config: intent },
    });
  return id;
}

async function propose(input: Record<string, unknown>): Promise<string> {
  const p = await gql(s.url, memberToken, 'mutation($i: OpenProposalInput!) { openProposal(input: $i) { id } }', {
    i: { title: 'Change', kind: 'config_change', ...input },
  });
  return p.data.openProposal.id;
}

describe('what a reviewer sees', () => {
  it('the reason, proposer, revision and a unified diff of proposed against current intent', async () => {
    const deviceId = await device('leaf-3', 'hostname leaf-3\ninterface eth0\n  mtu 1500\n');
    const id = await propose({
      deviceId,
      proposedIntent: 'hostname leaf-3\ninterface eth0\n  mtu 9000\n',
      reason: 'Jumbo frames for storage',
    });
    const g = await gql(s.url, t.adminToken, REVIEW, { id });
    expect(g.data.proposal).toMatchObject({ reason: 'Jumbo frames for storage', revision: 1 });
    const diff: string = g.data.proposal.diff;
    expect(diff).toContain('--- current/leaf-3');
    expect(diff).toContain('+++ proposed/leaf-3');
    expect(diff).toMatch(/^- {2}mtu 1500$/m);
    expect(diff).toMatch(/^\+ {2}mtu 9000$/m);
    expect(diff).not.toMatch(/^[-+]hostname/m);
    const list = await rest(s.url, t.adminToken).get('/proposals?status=proposed');
    const item = list.body.items.find((p: { id: string }) => p.id === id);
    expect(item).toMatchObject({ reason: 'Jumbo frames for storage', revision: 1, diff });
    expect(item.proposer_id).toBe(g.data.proposal.proposer.id);
  });

  it('follows an edit of the proposal (new revision, new diff) and diffs against an empty intent on a new device', async () => {
    const deviceId = await device('leaf-4');
    const id = await propose({ deviceId, proposedIntent: 'hostname leaf-4\n' });
    expect((await gql(s.url, t.adminToken, REVIEW, { id })).data.proposal.diff).toMatch(/^\+hostname leaf-4$/m);
    await gql(
      s.url,
      memberToken,
      'mutation($id: ID!, $i: UpdateProposalInput!) { updateProposal(id: $id, input: $i) { id } }',
      { id, i: { proposedIntent: 'hostname leaf-4b\n' } },
    );
    const g = await gql(s.url, t.adminToken, REVIEW, { id });
    expect(g.data.proposal.revision).toBe(2);
    expect(g.data.proposal.diff).toMatch(/^\+hostname leaf-4b$/m);
  });

  it('is empty when nothing would change and null for an action proposal', async () => {
    const deviceId = await device('leaf-5', 'hostname leaf-5\n');
    const same = await propose({ deviceId, proposedIntent: 'hostname leaf-5\r\n' });
    expect((await gql(s.url, t.adminToken, REVIEW, { id: same })).data.proposal.diff).toBe('');
    const action = await propose({ deviceId, action: 'reconcile' });
    expect((await gql(s.url, t.adminToken, REVIEW, { id: action })).data.proposal.diff).toBeNull();
  });
});
