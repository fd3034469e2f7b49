/**
 * Outbound webhook deliveries against real receivers on 127.0.0.1: signed bodies (node crypto and the
 * standardwebhooks library), retries and their window, 4xx that stop retries, no redirects, timeouts,
 * the send-time address check, trigger selection, secret rotation, redelivery, the delivery list, the
 * deliveryChanged subscription and retention. Set-up: test/helpers/webhooks-outbound-suite.ts.
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { untilSubscribed } from './helpers/pubsub.js';
import { buildTenant } from './factories.js';
import { eventually, gql, subscribe, wsClient } from './helpers/http.js';
import { dispatchOutbox, writeOutbox } from '../src/outbox/outbox.js';
import { runRetention } from '../src/history/retention.js';
import { fanOutOutboxMessage } from '../src/deliveries/fanout.js';
import { ensurePartitions, partitionName } from '../src/history/partitions.js';
import { partitionedTable } from '../src/history/tables.js';
import { poolOf } from '../src/db/client.js';
import { countStatements } from './helpers/sql-statements.js';
import {
  alertBody,
  announce,
  createWebhook,
  other,
  ownTenant,
  receiver,
  s,
  settled,
  siteWith,
  t,
  useOutboundSuite,
  webhookView,
} from './helpers/webhooks-outbound-suite.js';

useOutboundSuite();

describe('outbound deliveries', () => {
  it('never delivers a change announced before the webhook existed, even when its message is fanned out again', async () => {
    const fresh = await buildTenant(s.app.rt);
    const early = await createWebhook((await receiver()).url, undefined, fresh.adminToken, 'early');
    const id = await writeOutbox(s.app.rt.prisma, {
      createdAt: s.app.rt.clock.now(),
      tenantId: fresh.tenantId,
      topic: 'alert.opened',
      subjectId: crypto.randomUUID(),
      body: alertBody() as never,
    });
    const late = await createWebhook((await receiver()).url, undefined, fresh.adminToken, 'late');
    // The first fan-out and a re-drive (the sweeper's, or a crashed run's) create the early webhook's delivery only.
    expect(await fanOutOutboxMessage(s.app.rt, id)).toBe(1);
    expect(await fanOutOutboxMessage(s.app.rt, id)).toBe(0);
    expect(await s.app.rt.prisma.delivery.count({ where: { outboxId: id, webhookId: early.id } })).toBe(1);
    expect(await s.app.rt.prisma.delivery.count({ where: { outboxId: id, webhookId: late.id } })).toBe(0);
  });

  it("marks the message dispatched in its own day's partition only: the fan-out names the message by its whole key", async () => {
    const fresh = await buildTenant(s.app.rt);
    await createWebhook((await receiver()).url, undefined, fresh.adminToken, 'pruned');
    const createdAt = s.app.rt.clock.now();
    const outbox = partitionedTable('OutboxMessage');
    // The suite may run the service's clock at another time of day (TEST_TIME_OF_DAY): its day's partition first.
    await ensurePartitions(s.app.rt.prisma, outbox, createdAt, 0);
    const id = await writeOutbox(s.app.rt.prisma, {
      createdAt,
      tenantId: fresh.tenantId,
      topic: 'alert.opened',
      subjectId: crypto.randomUUID(),
      body: alertBody() as never,
    });
    const { result, statements, values } = await countStatements(() => fanOutOutboxMessage(s.app.rt, id));
    expect(result).toBe(1);
    const k = statements.findIndex((q) => q.includes('INSERT INTO "Delivery"'));
    expect(k).toBeGreaterThanOrEqual(0);
    // The statement as sent, planned with its parameters (EXPLAIN without ANALYZE runs nothing).
    const plan = await poolOf(s.app.rt.prisma).query(`EXPLAIN (FORMAT JSON) ${statements[k]}`, values[k]);
    // The update names the parent; the partitions it reaches are the message's alone (not the default, not another day's).
    const partitions = new Set(
      [...JSON.stringify(plan.rows).matchAll(/"Relation Name":"(OutboxMessage_[^"]*)"/g)].map((m) => m[1]),
    );
    expect([...partitions]).toEqual([partitionName(outbox, createdAt)]);
    expect((await s.app.rt.prisma.outboxMessage.findFirstOrThrow({ where: { id } })).dispatchedAt).not.toBeNull();
  });

  it('POSTs the inbound-shaped body, verifiable with node crypto and with the standardwebhooks library', async () => {
    const rcv = await receiver();
    const hook = await createWebhook(rcv.url);
    await announce('alert.opened', alertBody());
    await settled(hook.id);
    expect(rcv.requests).toHaveLength(1);
    const req = rcv.requests[0];
    // Plain node crypto, as a receiver would write it.
    const expected = crypto.createHmac('sha256', hook.secret).update(req.body).digest('hex');
    expect(crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(String(req.headers['x-service-signature'])))).toBe(
      true,
    );
    // The Standard Webhooks library.
    const payload = new Webhook(hook.secret).verify(req.body, req.headers as Record<string, string>);
    expect(payload).toMatchObject({
      id: req.headers['webhook-id'],
      topic: 'alert.opened',
      source: 'rules',
      kind: 'alert.opened',
      severity: 'critical',
      labels: { team: 'core' },
      payload: { alertId: 'a1' },
    });
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-service-event']).toBe('alert.opened');
    const w = await webhookView(hook.id);
    expect(w.deliveries[0]).toMatchObject({
      id: req.headers['webhook-id'],
      status: 'DELIVERED',
      attemptCount: 1,
      body: req.body,
    });
    expect(w.deliveries[0].attempts[0]).toMatchObject({
      number: 1,
      responseStatus: 200,
      responseBody: 'ok',
      error: null,
    });
    expect(w.deliveries[0].attempts[0].requestHeaders['x-service-signature']).toBe(req.headers['x-service-signature']);
  });

  it('a receiver that fails twice then recovers gets the delivery on the third attempt, with three attempts in history', async () => {
    const rcv = await receiver((_r, i) => (i < 2 ? { status: 500, body: 'boom' } : { status: 204 }));
    const hook = await createWebhook(rcv.url);
    await announce('alert.opened', alertBody());
    const w = await settled(hook.id);
    const d = w.deliveries[0];
    expect(d.status).toBe('DELIVERED');
    expect(d.attempts.map((a: any) => a.responseStatus)).toEqual([500, 500, 204]);
    expect(d.attempts[0].error).toContain('HTTP 500');
    expect(new Set(rcv.requests.map((r) => r.body)).size).toBe(1); // identical bytes every time
    expect(rcv.uniqueIds().size).toBe(1); // the same webhook-id every time
  });

  it("a receiver that always fails ends failed once the retry window is spent, shown as the webhook's last failure", async () => {
    const at = await siteWith({ WEBHOOK_RETRY_WINDOW_MS: '2000' });
    const rcv = await receiver(() => ({ status: 503, body: 'down' }));
    const hook = await createWebhook(rcv.url, undefined, at.t.adminToken, 'receiver', at);
    await announce('alert.opened', alertBody(), at.t.tenantId, at);
    await settled(hook.id, 1, at);
    // The webhook's last failure is written after the delivery's final state: wait for it too.
    const w = await eventually(async () => {
      const v = await webhookView(hook.id, undefined, at);
      return v.lastFailure ? v : null;
    }, 30_000);
    const d = w.deliveries[0];
    expect(d.status).toBe('FAILED');
    expect(d.attempts.length).toBeGreaterThan(1); // it was retried inside the window
    expect(d.attempts.length).toBe(rcv.requests.length);
    expect(d.lastError).toMatch(/retry window .* exhausted .* HTTP 503/);
    expect(w.lastFailure).toMatchObject({ id: d.id, status: 'FAILED', lastError: d.lastError });
    expect(w.lastFailureError).toBe(d.lastError);
  });

  it('410 Gone and other 4xx stop retries at once; 429 and 408 are retried', async () => {
    for (const [status, attempts, final] of [
      [410, 1, 'FAILED'],
      [400, 1, 'FAILED'],
      [429, 2, 'DELIVERED'],
      [408, 2, 'DELIVERED'],
    ] as const) {
      const rcv = await receiver((_r, i) => (i === 0 ? { status } : { status: 200 }));
      const hook = await createWebhook(rcv.url);
      await announce('alert.opened', alertBody());
      const d = (await settled(hook.id)).deliveries[0];
      expect([status, d.status, d.attempts.length]).toEqual([status, final, attempts]);
      if (final === 'FAILED') expect(d.lastError).toMatch(/retries stopped/);
    }
  });

  it('does not follow redirects: a 302 is a failed attempt', async () => {
    const target = await receiver();
    const rcv = await receiver((_r, i) =>
      i === 0 ? { status: 302, headers: { location: target.url } } : { status: 200 },
    );
    const hook = await createWebhook(rcv.url);
    await announce('alert.opened', alertBody());
    const d = (await settled(hook.id)).deliveries[0];
    expect(d.attempts.map((a: any) => a.responseStatus)).toEqual([302, 200]);
    expect(target.requests).toHaveLength(0);
  });

  it('times out a slow receiver and keeps 4 KiB of a large response', async () => {
    const at = await siteWith({ WEBHOOK_TIMEOUT_MS: '1000' });
    // The first request is never answered, so the first attempt times out however busy the machine is.
    const rcv = await receiver((_r, i) =>
      i === 0 ? { status: 200, hold: true } : { status: 500, body: 'x'.repeat(10_000) },
    );
    const hook = await createWebhook(rcv.url, undefined, at.t.adminToken, 'receiver', at);
    await announce('alert.opened', alertBody(), at.t.tenantId, at);
    await eventually(
      async () => ((await webhookView(hook.id, undefined, at)).deliveries[0]?.attempts.length >= 2 ? true : null),
      30_000,
    );
    const [first, second] = (await webhookView(hook.id, undefined, at)).deliveries[0].attempts;
    expect(first).toMatchObject({ responseStatus: null });
    expect(first.error).toMatch(/timed out/);
    expect(second.responseStatus).toBe(500);
    expect(second.responseBody).toHaveLength(4096);
  });

  it('checks the address again at send time: a receiver now on a private address fails without retries', async () => {
    const hook = await createWebhook((await receiver()).url);
    // As if DNS had been re-pointed after the URL was validated.
    await s.app.rt.prisma.outboundWebhook.update({
      where: { id: hook.id },
      data: { url: 'http://10.255.255.1:9/hook' },
    });
    await announce('alert.opened', alertBody());
    const d = (await settled(hook.id)).deliveries[0];
    expect(d.status).toBe('FAILED');
    expect(d.attempts).toHaveLength(1);
    expect(d.lastError).toMatch(/private\/loopback\/link-local/);
  });

  it('sends only what the triggers select', async () => {
    const rcv = await receiver();
    const hook = await createWebhook(rcv.url, [
      { on: 'ALERT_OPENED', severities: ['CRITICAL'] },
      { on: 'PROPOSAL_APPROVED', kinds: ['firmware'] },
    ]);
    await announce('alert.opened', alertBody('warning'));
    await announce('alert.resolved', alertBody('critical'));
    await announce('proposal.approved', {
      source: 'sot',
      kind: 'proposal.approved',
      labels: {},
      payload: { kind: 'config' },
    });
    await announce('proposal.approved', {
      source: 'sot',
      kind: 'proposal.approved',
      labels: {},
      payload: { kind: 'firmware' },
    });
    await announce('alert.opened', alertBody('critical'));
    await announce('alert.opened', alertBody('critical'), other.tenantId);
    const w = await settled(hook.id, 2);
    expect(w.deliveries.map((d: any) => JSON.parse(d.body).topic).sort()).toEqual([
      'alert.opened',
      'proposal.approved',
    ]);
    expect(rcv.requests).toHaveLength(2);
  });

  it('does not deliver to a disabled webhook', async () => {
    const rcv = await receiver();
    const off = await createWebhook(rcv.url);
    await gql(
      s.url,
      t.adminToken,
      'mutation($id: ID!) { updateOutboundWebhook(id: $id, input: { enabled: false }) { id } }',
      { id: off.id },
    );
    const on = await createWebhook((await receiver()).url);
    await announce('alert.opened', alertBody());
    await settled(on.id);
    expect((await webhookView(off.id)).deliveries).toEqual([]);
  });

  it('after rotation deliveries verify with the new and, for 24 hours, the old secret in both schemes', async () => {
    const rcv = await receiver();
    const hook = await createWebhook(rcv.url);
    const rot = await gql(
      s.url,
      t.adminToken,
      'mutation($id: ID!) { rotateWebhookSecret(id: $id) { webhookId secret previousSecretValidUntil } }',
      { id: hook.id },
    );
    const { secret: newSecret, previousSecretValidUntil } = rot.data.rotateWebhookSecret;
    expect(newSecret).not.toBe(hook.secret);
    expect(new Date(previousSecretValidUntil).getTime() - s.app.rt.clock.now().getTime()).toBeGreaterThan(
      23.9 * 3600_000,
    );
    await announce('alert.opened', alertBody());
    await settled(hook.id);
    const req = rcv.requests[0];
    const hex = (secret: string) => crypto.createHmac('sha256', secret).update(req.body).digest('hex');
    // A receiver still configured with the old secret keeps verifying.
    expect(req.headers['x-service-signature-previous']).toBe(hex(hook.secret));
    expect(new Webhook(hook.secret).verify(req.body, req.headers as Record<string, string>)).toBeTruthy();
    // One already switched verifies with the new one.
    expect(req.headers['x-service-signature']).toBe(hex(newSecret));
    expect(new Webhook(newSecret).verify(req.body, req.headers as Record<string, string>)).toBeTruthy();
    // After the window the old secret stops signing.
    await s.app.rt.prisma.outboundWebhook.update({
      where: { id: hook.id },
      data: { previousValidUntil: new Date(s.app.rt.clock.now().getTime() - 1000) },
    });
    await announce('alert.opened', alertBody());
    await settled(hook.id, 2);
    const later = rcv.requests[1];
    expect(later.headers['x-service-signature-previous']).toBeUndefined();
    expect(() => new Webhook(hook.secret).verify(later.body, later.headers as Record<string, string>)).toThrow();
  });

  it('redeliver sends a failed delivery again with the same webhook-id; CONFLICT while it is in progress', async () => {
    const rcv = await receiver((_r, i) => (i === 0 ? { status: 400 } : { status: 200 }));
    const hook = await createWebhook(rcv.url);
    await announce('alert.opened', alertBody());
    const failed = (await settled(hook.id)).deliveries[0];
    expect(failed.status).toBe('FAILED');
    // The receiver holds the redelivery until the test has tried to redeliver again.
    let release!: () => void;
    const released = new Promise<void>((ok) => (release = ok));
    rcv.setHandler(async () => {
      await released;
      return { status: 200 };
    });
    const r = await gql(s.url, t.adminToken, 'mutation($id: ID!) { redeliver(deliveryId: $id) { id status } }', {
      id: failed.id,
    });
    expect(r.data.redeliver).toEqual({ id: failed.id, status: 'PENDING' });
    const again = await gql(s.url, t.adminToken, 'mutation($id: ID!) { redeliver(deliveryId: $id) { id } }', {
      id: failed.id,
    });
    release();
    expect(again.errors?.[0].extensions?.code).toBe('CONFLICT');
    const d = await eventually(async () => {
      const x = (await webhookView(hook.id)).deliveries[0];
      return x.status === 'DELIVERED' ? x : null;
    });
    expect(d.attempts.map((a: any) => a.number)).toEqual([1, 2]);
    expect(rcv.uniqueIds()).toEqual(new Set([failed.id]));
  });

  it('shows the 100 latest deliveries of a webhook', async () => {
    const own = await ownTenant();
    const rcv = await receiver();
    const hook = await createWebhook(rcv.url, undefined, own.t.adminToken, 'receiver', own);
    const ids = [];
    for (let i = 0; i < 102; i++)
      ids.push(
        await writeOutbox(s.app.rt.prisma, {
          createdAt: s.app.rt.clock.now(),
          tenantId: own.t.tenantId,
          topic: 'alert.opened',
          subjectId: String(i),
          body: alertBody() as never,
        }),
      );
    await dispatchOutbox(s.app.rt, ids);
    // All 102 delivered (the view shows at most 100, so the server's records are counted).
    await eventually(
      async () =>
        (await s.app.rt.prisma.delivery.count({ where: { webhookId: hook.id, status: 'delivered' } })) === 102,
      90_000,
    );
    const w = await webhookView(hook.id, 500, own);
    expect(w.deliveries).toHaveLength(100);
    const total = await s.app.rt.prisma.delivery.count({ where: { webhookId: hook.id } });
    expect(total).toBe(102);
  }, 120_000);

  it('publishes deliveryChanged to subscribers of the tenant', async () => {
    const [own, theirSite] = [await ownTenant(), await ownTenant()];
    const rcv = await receiver();
    const hook = await createWebhook(rcv.url, undefined, own.t.adminToken, 'receiver', own);
    const client = wsClient(s.url, own.t.adminToken);
    const sub = subscribe(
      client,
      'subscription($w: ID) { deliveryChanged(webhookId: $w) { id webhookId status attemptCount delivery { id topic } } }',
      { w: hook.id },
    );
    const otherClient = wsClient(s.url, theirSite.t.adminToken);
    const otherSub = subscribe(otherClient, 'subscription { deliveryChanged { id webhookId } }');
    await untilSubscribed(s, 'deliveryChanged', own.t.tenantId);
    await untilSubscribed(s, 'deliveryChanged', theirSite.t.tenantId);
    await announce('alert.opened', alertBody(), own.t.tenantId, own);
    const first = (await sub.next()).data.deliveryChanged;
    expect(first).toMatchObject({
      webhookId: hook.id,
      status: 'PENDING',
      attemptCount: 0,
      delivery: { topic: 'alert.opened' },
    });
    const second = (await sub.next()).data.deliveryChanged;
    expect(second).toMatchObject({ id: first.id, status: 'DELIVERED', attemptCount: 1 });
    // The other tenant's subscriber hears its own tenant's delivery first, none of ours.
    const theirs = await createWebhook((await receiver()).url, undefined, theirSite.t.adminToken, 'theirs', theirSite);
    await announce('alert.opened', alertBody(), theirSite.t.tenantId, theirSite);
    expect((await otherSub.next()).data.deliveryChanged.webhookId).toBe(theirs.id);
    sub.dispose();
    otherSub.dispose();
    await client.dispose();
    await otherClient.dispose();
  });

  it('purges delivery history older than 30 days', async () => {
    const own = await ownTenant();
    const rcv = await receiver();
    const hook = await createWebhook(rcv.url, undefined, own.t.adminToken, 'receiver', own);
    await announce('alert.opened', alertBody(), own.t.tenantId, own);
    await announce('alert.opened', alertBody(), own.t.tenantId, own);
    const w = await settled(hook.id, 2, own);
    const old = w.deliveries[1].id;
    // Age the delivery and its attempts together (an attempt carries its delivery's time, their partition key).
    const aged = new Date(Date.now() - 31 * 24 * 3600_000);
    await s.app.rt.prisma.delivery.update({ where: { id: old }, data: { createdAt: aged } });
    await s.app.rt.prisma.deliveryAttempt.updateMany({ where: { deliveryId: old }, data: { deliveryCreatedAt: aged } });
    const purged = await runRetention(s.app.rt);
    expect(purged.tables.find((t) => t.table === 'Delivery')!.rowsDeleted).toBeGreaterThanOrEqual(1);
    const left = (await webhookView(hook.id, undefined, own)).deliveries.map((d: any) => d.id);
    expect(left).toEqual([w.deliveries[0].id]);
    expect(await s.app.rt.prisma.deliveryAttempt.count({ where: { deliveryId: old } })).toBe(0);
  });
});
