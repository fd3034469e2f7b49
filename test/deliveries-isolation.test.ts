/**
 * Receiver isolation: the per-receiver rate limit (shared through Redis) and a slow receiver that
 * cannot take every worker slot.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { eventually, gql } from './helpers/http.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';
import { dispatchOutbox, writeOutbox } from '../src/outbox/outbox.js';
import { ReceiverLimits, receiverKey } from '../src/deliveries/receiver-limits.js';

let s: TestServer;
let t: BuiltTenant;
const receivers: Receiver[] = [];

beforeAll(async () => {
  s = await startTestServer({
    env: {
      WEBHOOK_URL_ALLOWLIST: '127.0.0.1',
      WEBHOOK_DELIVERY_CONCURRENCY: '4',
      WEBHOOK_MAX_IN_FLIGHT_PER_RECEIVER: '2',
      WEBHOOK_TIMEOUT_MS: '20000',
    },
  });
  t = await buildTenant(s.app.rt);
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await s?.stop();
});

describe('receiver limits', () => {
  it('admits 50 requests per receiver URL in a second, across limiter instances, and says when to retry', async () => {
    const url = `http://127.0.0.1:1/${crypto.randomUUID()}`;
    // Two instances stand for two worker processes: the count lives in Redis.
    const [a, b] = [new ReceiverLimits(s.app.rt, 1000), new ReceiverLimits(s.app.rt, 1000)];
    const results = await Promise.all(Array.from({ length: 60 }, (_v, i) => (i % 2 ? a : b).admit(url)));
    const admitted = results.filter((r) => r.ok);
    const refused = results.filter((r) => !r.ok);
    expect(admitted).toHaveLength(50);
    for (const r of refused) {
      expect(r.ok === false && r.reason).toBe('rate');
      expect(r.ok === false && r.retryInMs).toBeGreaterThan(0);
      expect(r.ok === false && r.retryInMs).toBeLessThanOrEqual(1100);
    }
    // Another receiver is unaffected.
    expect((await a.admit(`http://127.0.0.1:1/${crypto.randomUUID()}`)).ok).toBe(true);
  });

  it('counts a finished request from when it finished, so the cap holds at the receiver however late the request left', async () => {
    const url = `http://127.0.0.1:1/${crypto.randomUUID()}`;
    const key = `${s.app.rt.config.redisPrefix}:rl:webhook-receiver:${receiverKey(url)}`;
    const limits = new ReceiverLimits(s.app.rt, 1000, 2);
    const [first, second, third] = await Promise.all([limits.admit(url), limits.admit(url), limits.admit(url)]);
    expect([first.ok, second.ok, third.ok]).toEqual([true, true, false]);
    const admittedAt = await s.app.rt.redis.zrange(key, 0, -1, 'WITHSCORES');
    expect(admittedAt).toHaveLength(4); // two requests (member, score); the refused one is not recorded
    // The requests finish (release) only now; Redis's time before that is a floor for their new scores.
    const [sec, micro] = await s.app.rt.redis.time();
    const before = Number(sec) * 1000 + Math.floor(Number(micro) / 1000);
    if (first.ok) first.release();
    if (second.ok) second.release();
    await eventually(async () => {
      const scores = (await s.app.rt.redis.zrange(key, 0, -1, 'WITHSCORES')).filter((_v, i) => i % 2 === 1).map(Number);
      return scores.length === 2 && scores.every((score) => score >= before);
    }, 5_000);
  });

  it('scores a finished request by when it finished, however long its stamp waited to be sent', async () => {
    const url = `http://127.0.0.1:1/${crypto.randomUUID()}`;
    const key = `${s.app.rt.config.redisPrefix}:rl:webhook-receiver:${receiverKey(url)}`;
    // The limiter's clock is the process's measure of time: it moves 500 ms on between the request's end
    // and the stamp's send, as if the stamp had waited that long for a call.
    let offsetMs = 0;
    const clock = { now: () => new Date(Date.now() + offsetMs) };
    const limits = new ReceiverLimits({ ...s.app.rt, clock }, 1000, 5);
    const admitted = await limits.admit(url);
    expect(admitted.ok).toBe(true);
    const redisMs = async () => {
      const [sec, micro] = await s.app.rt.redis.time();
      return Number(sec) * 1000 + Math.floor(Number(micro) / 1000);
    };
    const before = await redisMs();
    const [, admittedScore] = await s.app.rt.redis.zrange(key, 0, -1, 'WITHSCORES');
    if (admitted.ok) admitted.release();
    offsetMs = 500;
    const score = await eventually(
      async () => {
        const [, now] = await s.app.rt.redis.zrange(key, 0, -1, 'WITHSCORES');
        return now !== admittedScore ? Number(now) : null;
      },
      5_000,
      5,
    );
    const after = await redisMs();
    // Stamped: 500 ms before Redis's time when the stamp came, which was after `before`.
    expect(score).toBeGreaterThanOrEqual(before - 500);
    expect(score).toBeLessThanOrEqual(after - 500);
  });

  it('tells requests refused together the times of successive slots, not all the first', async () => {
    const url = `http://127.0.0.1:1/${crypto.randomUUID()}`;
    const limits = new ReceiverLimits(s.app.rt, 1000, 2);
    const redisMs = async () => {
      const [sec, micro] = await s.app.rt.redis.time();
      return Number(sec) * 1000 + Math.floor(Number(micro) / 1000);
    };
    expect((await limits.admit(url)).ok).toBe(true);
    const firstAdmitted = await redisMs(); // at or after the first slot's stamp
    // The second request comes once Redis's clock (which stamps the slots) is 100 ms past the first.
    await eventually(async () => (await redisMs()) - firstAdmitted >= 100, 5_000, 5);
    expect((await limits.admit(url)).ok).toBe(true);
    // A second limiter (another process) knows nothing of the receiver: both its requests go to Redis in one call.
    const other = new ReceiverLimits(s.app.rt, 1000, 2);
    const [first, second] = await Promise.all([other.admit(url), other.admit(url)]);
    expect([first.ok, second.ok]).toEqual([false, false]);
    const [a, b] = [first, second].map((r) => (r.ok ? 0 : r.retryInMs));
    // The slots free 100 ms or more apart (the requests were admitted that far apart); waits carry ≤ 4 ms of jitter.
    expect(b - a).toBeGreaterThanOrEqual(100 - 4);
  });

  it('a slow receiver holds at most its in-flight share of worker slots; others keep flowing', async () => {
    const slow = await startReceiver(() => ({ status: 200, hold: true }));
    const fast = await startReceiver();
    receivers.push(slow, fast);
    for (const [name, url] of [
      ['slow', slow.url],
      ['fast', fast.url],
    ]) {
      const r = await gql(
        s.url,
        t.adminToken,
        'mutation($input: CreateOutboundWebhookInput!) { createOutboundWebhook(input: $input) { id } }',
        {
          input: { name, url, triggers: [{ on: 'ALERT_OPENED' }] },
        },
      );
      expect(r.errors).toBeUndefined();
    }
    const ids = [];
    for (let i = 0; i < 10; i++) {
      ids.push(
        await writeOutbox(s.app.rt.prisma, {
          createdAt: s.app.rt.clock.now(),
          tenantId: t.tenantId,
          topic: 'alert.opened',
          subjectId: String(i),
          body: { source: 'x', kind: 'alert.opened', severity: 'critical', labels: {}, payload: {} },
        }),
      );
    }
    await dispatchOutbox(s.app.rt, ids);
    // With 4 worker slots and 10 deliveries queued for each, the fast receiver gets all of its own
    // while the slow one still holds its first requests (it never answers within the test).
    await eventually(async () => fast.requests.length === 10, 20_000);
    expect(slow.requests.length).toBeLessThanOrEqual(2);
    expect(slow.requests.length).toBeGreaterThan(0);
  });
});
