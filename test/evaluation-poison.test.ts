/**
 * A poison event (one whose evaluation always fails, such as a payload nested 10,000 levels deep that was
 * stored before the boundary limit existed) is tried a bounded number of times, then set aside with its
 * error: visible on the event over GraphQL, counted in /metrics, never blocking the rest of its batch
 * and never re-driven again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { call, eventually, gql } from './helpers/http.js';
import { v7 as uuidv7 } from 'uuid';
import { MAX_EVALUATION_ATTEMPTS } from '../src/rules/evaluate.js';
import { redriveUnevaluatedEvents } from '../src/rules/sweeper.js';

let s: TestServer;
let t: BuiltTenant;

beforeAll(async () => {
  // The sweeper re-drives failed events quickly, so the attempts happen within the test.
  s = await startTestServer({ env: { EVALUATE_SWEEP_INTERVAL_MS: '200', EVALUATE_SWEEP_AGE_MS: '100' } });
  t = await buildTenant(s.app.rt);
});
afterAll(async () => {
  await s?.stop();
});

/** Stores an event row as an older version of ingest would have (no boundary limit), unevaluated. */
async function storeRaw(type: string, payloadJson: string): Promise<string> {
  // Stamped from the service's clock, as ingest does: the sweep compares receivedAt with that clock.
  const at = s.app.rt.clock.now();
  const id = uuidv7({ msecs: at.getTime() });
  await s.app.rt.prisma.$executeRaw`
    INSERT INTO "Event" ("id", "tenantId", "type", "source", "summary", "severity", "labels", "payload", "receivedVia", "receivedAt")
    VALUES (${id}, ${t.tenantId}, ${type}, 'probe', ${type}, 'critical'::"Severity", '{}'::jsonb, ${payloadJson}::jsonb, 'ingest'::"ReceivedVia", ${at})`;
  return id;
}

function deepJson(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

async function setAsideCount(): Promise<number> {
  const m = await call(s.url, 'GET', '/metrics');
  const line = String(m.body)
    .split('\n')
    .find((l) => l.startsWith('events_evaluation_set_aside_total'));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('a poison event in a batch', () => {
  it(`is set aside with its error after ${MAX_EVALUATION_ATTEMPTS} attempts while the rest of its batch is evaluated`, async () => {
    const rule = await gql(
      s.url,
      t.adminToken,
      'mutation($input: CreateAlertRuleInput!) { createAlertRule(input: $input) { id } }',
      {
        input: {
          name: 'batch',
          typeGlob: 'batch.*',
          dedupKeyTemplate: '{{type}}:{{payload.a.a}}',
          summaryTemplate: '{{payload}}',
        },
      },
    );
    expect(rule.errors).toBeUndefined();
    const before = await setAsideCount();
    const good = [await storeRaw('batch.one', '{"a":{"a":1}}'), await storeRaw('batch.two', '{"a":{"a":2}}')];
    const poison = await storeRaw('batch.poison', deepJson(10_000));
    const ids = [good[0], poison, good[1]];
    await s.app.rt.queues.add('evaluate', { eventIds: ids });

    // The good events of the batch are evaluated and raise their alerts.
    await eventually(
      async () =>
        (await s.app.rt.prisma.event.count({ where: { id: { in: good }, evaluatedAt: { not: null } } })) === 2,
      20_000,
    );
    expect(await s.app.rt.prisma.alert.count({ where: { tenantId: t.tenantId } })).toBe(2);

    // The poison event is tried, re-driven by the sweeper, and set aside after the last attempt.
    const stored = await eventually(async () => {
      const ev = await s.app.rt.prisma.event.findUniqueOrThrow({ where: { id: poison } });
      return ev.evaluationAttempts >= MAX_EVALUATION_ATTEMPTS ? ev : null;
    }, 30_000);
    expect(stored.evaluatedAt).toBeNull();
    expect(stored.evaluationError).toMatch(/\S/);
    expect(await eventually(async () => ((await setAsideCount()) === before + 1 ? true : null), 10_000)).toBe(true);

    // Set aside: never claimed or re-driven again.
    expect(await redriveUnevaluatedEvents(s.app.rt, 0)).toBe(0);
    await s.app.rt.queues.add('evaluate', { eventIds: [poison] }, { jobId: `again-${poison}` });
    const late = await storeRaw('batch.late', '{"a":{"a":3}}');
    await s.app.rt.queues.add('evaluate', { eventIds: [late] });
    await eventually(
      async () => (await s.app.rt.prisma.event.findUniqueOrThrow({ where: { id: late } })).evaluatedAt !== null,
      20_000,
    );
    expect((await s.app.rt.prisma.event.findUniqueOrThrow({ where: { id: poison } })).evaluationAttempts).toBe(
      MAX_EVALUATION_ATTEMPTS,
    );

    // Visible over GraphQL.
    const seen = await gql(
      s.url,
      t.adminToken,
      '{ events(first: 10, filter: { type: "batch.poison" }) { edges { node { id evaluationAttempts evaluationError evaluatedAt } } } }',
    );
    expect(seen.errors).toBeUndefined();
    expect(seen.data.events.edges[0].node).toMatchObject({
      id: poison,
      evaluationAttempts: MAX_EVALUATION_ATTEMPTS,
      evaluatedAt: null,
    });
    expect(seen.data.events.edges[0].node.evaluationError).toBe(stored.evaluationError);
  });
});
