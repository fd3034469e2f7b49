/**
 * Alerts that follow upstream alerts, with a real Prometheus Alertmanager (Debian's
 * prometheus-alertmanager) as the upstream:
 * - webhook receiver + a rule over `alertmanager.*`: one of our alerts per upstream alert (by
 *   fingerprint), carrying its labels and annotations, and resolving one upstream resolves only its own;
 * - `pagerduty_configs` pointed at a `pagerduty` integration (PagerDuty Events API v2): a firing alert
 *   opens ours, and its resolution resolves it.
 * The PagerDuty answers (202 / 400 shapes, acknowledge, the routing key as credential) are checked
 * with direct posts in the protocol's documented shapes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { eventually, rest } from './helpers/http.js';
import { startAlertmanager, type Peer } from './helpers/peers.js';

let s: TestServer;
let t: BuiltTenant;
const peers: Peer[] = [];

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1' } });
  t = await buildTenant(s.app.rt);
});
afterAll(async () => {
  for (const p of peers) await p.stop();
  await s?.stop();
});

const ROUTE = [
  'global:',
  '  resolve_timeout: 5m',
  'route:',
  '  receiver: ops',
  "  group_by: ['alertname']",
  '  group_wait: 1s',
  '  group_interval: 1s',
  '  repeat_interval: 1h',
  'receivers:',
  '  - name: ops',
];

async function createIntegration(
  provider: string,
  name: string,
): Promise<{ id: string; pushToken: string; pushUrl: string }> {
  const r = await rest(s.url, t.adminToken).post('/integrations', { provider, name });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { id: r.body.id, pushToken: r.body.push_token, pushUrl: r.body.push_url };
}

async function postToAlertmanager(peer: Peer, alerts: unknown[]): Promise<void> {
  const r = await fetch(peer.url + '/api/v2/alerts', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(alerts),
  });
  expect(r.status).toBe(200);
}

async function alertsFrom(source: string) {
  const r = await rest(s.url, t.adminToken).get(`/alerts?source=${encodeURIComponent(source)}`);
  expect(r.status).toBe(200);
  return r.body.items as Array<Record<string, any>>;
}

describe('a rule over alertmanager.* with a real Alertmanager', () => {
  it('opens one alert per upstream alert, with its labels and annotations; resolving one upstream resolves only its own', async () => {
    const integ = await createIntegration('alertmanager', 'prod');
    const am = await startAlertmanager(
      [
        ...ROUTE,
        '    webhook_configs:',
        `      - url: '${integ.pushUrl}'`,
        '        send_resolved: true',
        '        http_config:',
        '          authorization:',
        '            type: Bearer',
        `            credentials: '${integ.pushToken}'`,
        '',
      ].join('\n'),
    );
    peers.push(am);
    const rule = await rest(s.url, t.adminToken).post('/alert-rules', {
      name: 'Crash loops',
      type_glob: 'alertmanager.*',
      alert_severity: 'critical',
    });
    expect(rule.status).toBe(201);

    const startsAt = new Date().toISOString();
    const upstream = (pod: string) => ({
      labels: { alertname: 'KubePodCrashLooping', severity: 'warning', namespace: 'shop', pod },
      annotations: {
        summary: `Pod ${pod} crash looping`,
        description: `${pod} restarted 5 times`,
        runbook_url: 'https://runbooks.example/crashloop',
      },
      generatorURL: 'http://prometheus.example/graph?g0.expr=up',
      startsAt,
    });
    await postToAlertmanager(am, [upstream('checkout-1'), upstream('cart-1')]);
    const opened = await eventually(
      async () => {
        const list = await alertsFrom('alertmanager/prod');
        return list.length === 2 ? list : null;
      },
      30_000,
      200,
    );
    // Exactly two: the rule's own, one per upstream alert (never one for all, never ours beside the rule's).
    expect(opened.every((a) => a.rule_id === rule.body.id && a.status === 'open' && a.severity === 'critical')).toBe(
      true,
    );
    const checkout = opened.find((a) => a.labels.pod === 'checkout-1')!;
    const cart = opened.find((a) => a.labels.pod === 'cart-1')!;
    expect(checkout.dedup_key).not.toBe(cart.dedup_key);
    expect(checkout.dedup_key).toMatch(new RegExp(`^integration:${integ.id}:[0-9a-f]+$`));
    expect(checkout.labels).toEqual({
      alertname: 'KubePodCrashLooping',
      severity: 'warning',
      namespace: 'shop',
      pod: 'checkout-1',
      integration_id: integ.id,
    });
    expect(checkout.annotations).toMatchObject({
      summary: 'Pod checkout-1 crash looping',
      description: 'checkout-1 restarted 5 times',
      runbook_url: 'https://runbooks.example/crashloop',
      generator_url: 'http://prometheus.example/graph?g0.expr=up',
    });
    expect(
      (await rest(s.url, t.adminToken).get('/alerts?label=pod:cart-1')).body.items.map((a: { id: string }) => a.id),
    ).toEqual([cart.id]);

    await postToAlertmanager(am, [{ ...upstream('checkout-1'), endsAt: new Date().toISOString() }]);
    await eventually(
      async () => (await alertsFrom('alertmanager/prod')).find((a) => a.id === checkout.id)?.status === 'resolved',
      30_000,
      200,
    );
    const after = await alertsFrom('alertmanager/prod');
    expect(after).toHaveLength(2);
    expect(after.find((a) => a.id === cart.id)).toMatchObject({ status: 'open' });
    const detail = await rest(s.url, t.adminToken).get(`/alerts/${checkout.id}`);
    const resolvedBy = detail.body.timeline.at(-1);
    expect(resolvedBy).toMatchObject({ action: 'resolved', actor: null });
    const resolvingEvent = detail.body.events.find((e: { id: string }) => e.id === resolvedBy.actor_event_id);
    expect(resolvingEvent).toMatchObject({
      type: 'alertmanager.resolved',
      labels: { event_action: 'resolve', dedup_key: checkout.dedup_key },
    });
  });
});

describe('pagerduty integration (PagerDuty Events API v2)', () => {
  let integ: { id: string; pushToken: string; pushUrl: string };

  it('a real Alertmanager with pagerduty_configs pointed at the push URL opens an alert, then resolves it', async () => {
    integ = await createIntegration('pagerduty', 'from-am');
    const am = await startAlertmanager(
      [
        ...ROUTE,
        '    pagerduty_configs:',
        `      - routing_key: '${integ.pushToken}'`,
        `        url: '${integ.pushUrl}'`,
        '        send_resolved: true',
        '',
      ].join('\n'),
    );
    peers.push(am);
    const startsAt = new Date().toISOString();
    const upstream = {
      labels: { alertname: 'DiskFull', instance: 'db-1:9100', severity: 'critical' },
      annotations: { summary: 'Disk almost full' },
      startsAt,
    };
    await postToAlertmanager(am, [upstream]);
    const [opened] = await eventually(
      async () => {
        const list = await alertsFrom('pagerduty/from-am');
        return list.length ? list : null;
      },
      30_000,
      200,
    );
    // Alertmanager's PagerDuty event: severity "error" (its default) → critical; custom_details → labels/annotations.
    expect(opened).toMatchObject({ status: 'open', severity: 'critical' });
    expect(opened!.summary).toMatch(/DiskFull/);
    expect(opened!.labels).toMatchObject({ num_firing: '1', num_resolved: '0', integration_id: integ.id });
    expect(opened!.annotations.firing).toMatch(/alertname = DiskFull/);
    expect(opened!.annotations.generator_url).toMatch(/^http:\/\//); // client_url: Alertmanager's external URL

    await postToAlertmanager(am, [{ ...upstream, endsAt: new Date().toISOString() }]);
    await eventually(async () => (await alertsFrom('pagerduty/from-am'))[0]!.status === 'resolved', 30_000, 200);
    expect(await alertsFrom('pagerduty/from-am')).toHaveLength(1);
  });

  it('answers 202 {status, message, dedup_key}; acknowledge and resolve act on the alert named by dedup_key', async () => {
    const send = (body: Record<string, unknown>) => rest(s.url).post(`/integrations/${integ.id}/push`, body);
    const trig = await send({
      routing_key: integ.pushToken,
      event_action: 'trigger',
      payload: {
        summary: 'Checkout latency high',
        source: 'grafana',
        severity: 'warning',
        component: 'checkout',
        custom_details: { service: 'checkout', p99_ms: 2300 },
      },
      links: [{ href: 'https://runbooks.example/latency', text: 'Runbook' }],
      client_url: 'https://grafana.example/d/1',
    });
    expect(trig.status).toBe(202);
    expect(trig.body).toEqual({
      status: 'success',
      message: 'Event processed',
      dedup_key: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    const key = trig.body.dedup_key;
    const alert = await eventually(async () =>
      (await alertsFrom('pagerduty/from-am')).find((a) => a.dedup_key === `integration:${integ.id}:${key}`),
    );
    expect(alert).toMatchObject({
      status: 'open',
      severity: 'warning',
      labels: { service: 'checkout', component: 'checkout', source: 'grafana' },
    });
    expect(alert.annotations).toMatchObject({
      service: 'checkout',
      p99_ms: '2300',
      runbook_url: 'https://runbooks.example/latency',
      generator_url: 'https://grafana.example/d/1',
    });
    // The routing key is the credential and is not stored with the event.
    const events = await rest(s.url, t.adminToken).get('/events?module=integrations');
    expect(JSON.stringify(events.body)).not.toContain(integ.pushToken);

    const ack = await send({ routing_key: integ.pushToken, event_action: 'acknowledge', dedup_key: key });
    expect(ack.body).toEqual({ status: 'success', message: 'Event processed', dedup_key: key });
    expect((await rest(s.url, t.adminToken).get(`/alerts/${alert.id}`)).body.status).toBe('acknowledged');
    const res = await send({ routing_key: integ.pushToken, event_action: 'resolve', dedup_key: key });
    expect(res.status).toBe(202);
    const detail = (await rest(s.url, t.adminToken).get(`/alerts/${alert.id}`)).body;
    expect(detail.status).toBe('resolved');
    expect(detail.timeline.map((e: { action: string }) => e.action)).toEqual(['opened', 'acknowledged', 'resolved']);
    expect(detail.timeline.at(-1).actor_event_id).toEqual(expect.any(String));
  });

  it('answers 400 {status: "invalid event", message, errors} for a body it cannot take, and 401 for a wrong routing key', async () => {
    const bad = await rest(s.url).post(`/integrations/${integ.id}/push`, {
      routing_key: integ.pushToken,
      event_action: 'trigger',
      payload: { source: 'x', severity: 'loud' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ status: 'invalid event', message: 'Event object is invalid' });
    expect(bad.body.errors).toEqual(
      expect.arrayContaining([expect.stringContaining('payload.summary'), expect.stringContaining('payload.severity')]),
    );
    const noKey = await rest(s.url).post(`/integrations/${integ.id}/push`, {
      routing_key: integ.pushToken,
      event_action: 'resolve',
    });
    expect(noKey.status).toBe(400);
    expect(noKey.body.errors).toEqual([expect.stringContaining('dedup_key')]);
    const wrong = await rest(s.url).post(`/integrations/${integ.id}/push`, {
      routing_key: 'sip_wrong',
      event_action: 'resolve',
      dedup_key: 'x',
    });
    expect(wrong.status).toBe(401);
  });

  it('takes a routing key in the body only for pagerduty integrations', async () => {
    const am = await createIntegration('alertmanager', 'header-only');
    const r = await rest(s.url).post(`/integrations/${am.id}/push`, {
      routing_key: am.pushToken,
      version: '4',
      alerts: [],
    });
    expect(r.status).toBe(401);
  });
});
