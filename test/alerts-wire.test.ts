/**
 * One wire shape per alert: what REST answers for an alert, what the service sends elsewhere (`alertChanged`,
 * outbound webhook bodies, the assistant's tools, cluster forwarding: src/alerts/wire.ts) and the GraphQL `Alert`
 * type agree field for field, so a change to one cannot drift from the others. (The compiler already holds
 * `AlertWire` to the OpenAPI schema: src/openapi-types.ts.)
 */
import fs from 'node:fs';
import { buildSchema, getNamedType, GraphQLObjectType, isScalarType, isEnumType } from 'graphql';
import { ALERT_FIELDS } from '../rest/presenters/alerts.js';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { rest } from './helpers/http.js';
import { alertWire } from '../src/alerts/wire.js';

let s: TestServer;
let t: BuiltTenant;

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
});
afterAll(async () => {
  await s?.stop();
});

const camel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
/** The wire's fields no REST field list asks for: the device is a nested object in GraphQL and REST's detail. */
const WIRE_ONLY = ['device_id'];
/** GraphQL `Alert` scalar fields that depend on the caller, not on the alert row. */
const CALLER_ONLY = ['allowedActions'];

describe('the alert wire shape', () => {
  it('is the GraphQL Alert type (its own scalar fields) and what REST asks GraphQL for', () => {
    const wireKeys = Object.keys(
      alertWire({
        id: 'a',
        status: 'open',
        severity: 'info',
        summary: '',
        source: null,
        labels: {},
        annotations: {},
        dedupKey: '',
        count: 1,
        ruleId: null,
        deviceId: null,
        assigneeId: null,
        maintenanceWindowId: null,
        suppressed: false,
        firstSeenAt: new Date(0),
        lastSeenAt: new Date(0),
        acknowledgedAt: null,
        snoozedUntil: null,
        resolvedAt: null,
        createdAt: new Date(0),
        updatedAt: new Date(0),
      } as never),
    );
    const sdl = buildSchema(fs.readFileSync('schema.graphql', 'utf8'));
    const alertType = sdl.getType('Alert') as GraphQLObjectType;
    const scalarFields = Object.values(alertType.getFields())
      .filter((f) => f.args.length === 0)
      .filter((f) => isScalarType(getNamedType(f.type)) || isEnumType(getNamedType(f.type)))
      .map((f) => f.name)
      .filter((n) => !CALLER_ONLY.includes(n));
    const wireAsGraphql = wireKeys.filter((k) => !WIRE_ONLY.includes(k)).map(camel);
    // Every wire field is a GraphQL field, and every scalar field of the GraphQL Alert is on the wire.
    expect(
      wireAsGraphql.filter((k) => !scalarFields.includes(k)),
      'wire fields GraphQL lacks',
    ).toEqual([]);
    expect(
      scalarFields.filter((k) => !wireAsGraphql.includes(k)),
      'GraphQL Alert fields the wire lacks',
    ).toEqual([]);
    // REST asks GraphQL for exactly the wire's fields (and the caller's allowed actions).
    expect(ALERT_FIELDS.split(/\s+/).sort()).toEqual([...wireAsGraphql, ...CALLER_ONLY].sort());
  });

  it('is what REST shows for the alert, in the list and the detail', async () => {
    const key = crypto.randomBytes(6).toString('hex');
    const now = new Date();
    const row = await s.app.rt.prisma.alert.create({
      data: {
        tenantId: t.tenantId,
        severity: 'critical',
        summary: 'disk full',
        source: 'db-1',
        dedupKey: key,
        liveDedupKey: key,
        status: 'acknowledged',
        acknowledgedAt: now,
        count: 3,
      },
    });
    const wire = alertWire(row) as unknown as Record<string, unknown>;
    const list = await rest(s.url, t.adminToken).get('/alerts');
    const item = (list.body.items as Array<Record<string, unknown>>).find((a) => a.id === row.id)!;
    const detail = (await rest(s.url, t.adminToken).get(`/alerts/${row.id}`)).body as Record<string, unknown>;
    for (const shown of [item, detail]) {
      const shared = Object.keys(shown).filter((k) => k in wire);
      // Every REST field of the alert row itself is in the wire shape, with the same value.
      expect(shared.length).toBeGreaterThanOrEqual(15);
      for (const k of shared) expect(shown[k], k).toEqual(wire[k]);
      const onlyRest = Object.keys(shown).filter((k) => !(k in wire));
      expect(
        onlyRest.every((k) =>
          ['allowed_actions', 'rule', 'assignee', 'maintenance_window', 'events', 'timeline'].includes(k),
        ),
        onlyRest.join(','),
      ).toBe(true);
    }
  });
});
