/**
 * The schema convention's shared parts against the real service: `node(id:)` / `nodes(ids:)` resolve an
 * alert, a device and a proposal by id within the caller's tenant (another tenant's id is null), and every
 * connection has `totalCount` and is named after its node type.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getNamedType, GraphQLObjectType } from 'graphql';
import { schema } from '../schema/index.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { gql } from './helpers/http.js';

let s: TestServer;
let t: BuiltTenant;
let other: BuiltTenant;
const ids: Record<string, string> = {};

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
  other = await buildTenant(s.app.rt);
  const device = await gql(
    s.url,
    t.adminToken,
    'mutation { createDevice(input: {name: "edge-1", site: "ams1"}) { id } }',
  );
  ids.device = device.data.createDevice.id;
  const proposal = await gql(
    s.url,
    t.adminToken,
    'mutation($d: ID!) { openProposal(input: {deviceId: $d, title: "MTU", kind: "intent_change", proposedIntent: "mtu 9000"}) { id } }',
    { d: ids.device },
  );
  expect(proposal.errors, JSON.stringify(proposal.errors)).toBeUndefined();
  ids.proposal = proposal.data.openProposal.id;
  const key = crypto.randomBytes(6).toString('hex');
  const alert = await s.app.rt.prisma.alert.create({
    data: {
      tenantId: t.tenantId,
      severity: 'critical',
      summary: 'disk full',
      source: 'db-1',
      dedupKey: key,
      liveDedupKey: key,
    },
  });
  ids.alert = alert.id;
  const foreignKey = crypto.randomBytes(6).toString('hex');
  ids.foreign = (
    await s.app.rt.prisma.alert.create({
      data: {
        tenantId: other.tenantId,
        severity: 'info',
        summary: 'theirs',
        source: 'x',
        dedupKey: foreignKey,
        liveDedupKey: foreignKey,
      },
    })
  ).id;
});
afterAll(async () => {
  await s?.stop();
});

const NODE = `query($id: ID!) { node(id: $id) { __typename id ... on Alert { summary } ... on Device { name } ... on Proposal { status } } }`;

describe('node(id:)', () => {
  it('returns an alert, a device and a proposal by id, with their own fields', async () => {
    expect(ids.proposal, 'the proposal was created').toBeTruthy();
    expect((await gql(s.url, t.adminToken, NODE, { id: ids.alert })).data.node).toEqual({
      __typename: 'Alert',
      id: ids.alert,
      summary: 'disk full',
    });
    expect((await gql(s.url, t.adminToken, NODE, { id: ids.device })).data.node).toEqual({
      __typename: 'Device',
      id: ids.device,
      name: 'edge-1',
    });
    expect((await gql(s.url, t.adminToken, NODE, { id: ids.proposal })).data.node).toMatchObject({
      __typename: 'Proposal',
      id: ids.proposal,
    });
  });

  it("gives null for another tenant's id, an unknown id and a malformed one", async () => {
    for (const id of [ids.foreign, crypto.randomUUID(), "x' OR 1=1 --"]) {
      const r = await gql(s.url, t.adminToken, NODE, { id });
      expect(r.errors, id).toBeUndefined();
      expect(r.data.node, id).toBeNull();
    }
    // The owner still sees it: the null above is the tenant rule, not a broken lookup.
    expect((await gql(s.url, other.adminToken, NODE, { id: ids.foreign })).data.node).toMatchObject({
      __typename: 'Alert',
    });
  });

  it('nodes(ids:) keeps the order and puts null where the caller may not see', async () => {
    const r = await gql(s.url, t.adminToken, 'query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }', {
      ids: [ids.device, ids.foreign, ids.alert],
    });
    expect(r.data.nodes).toEqual([
      { __typename: 'Device', id: ids.device },
      null,
      { __typename: 'Alert', id: ids.alert },
    ]);
    const tooMany = await gql(s.url, t.adminToken, 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
      ids: Array.from({ length: 101 }, () => crypto.randomUUID()),
    });
    expect(tooMany.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('needs a credential', async () => {
    const r = await gql(s.url, undefined, NODE, { id: ids.alert });
    expect(r.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('connections', () => {
  it('are named after their node type and all have totalCount', async () => {
    const connections = Object.values(schema.getTypeMap()).filter(
      (type): type is GraphQLObjectType => type instanceof GraphQLObjectType && type.name.endsWith('Connection'),
    );
    expect(connections.length).toBeGreaterThan(5);
    for (const c of connections) {
      const fields = c.getFields();
      expect(Object.keys(fields), c.name).toContain('totalCount');
      const edge = getNamedType(fields.edges!.type) as GraphQLObjectType;
      const nodeType = getNamedType(edge.getFields().node!.type).name;
      expect(c.name, 'named <NodeType>Connection').toBe(`${nodeType}Connection`);
    }
  });

  it('count every match, not the page', async () => {
    const r = await gql(
      s.url,
      t.adminToken,
      `query($d: ID!) { alerts(first: 1) { totalCount edges { node { id } } } devices(first: 1) { totalCount } device(id: $d) { proposals(first: 1) { totalCount } events(first: 1) { totalCount } } }`,
      { d: ids.device },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.alerts.totalCount).toBe(1);
    expect(r.data.devices.totalCount).toBe(1);
    expect(r.data.device.proposals.totalCount).toBe(1);
    expect(r.data.device.events.totalCount).toBeGreaterThanOrEqual(1);
  });
});
