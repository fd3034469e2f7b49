/**
 * A real Prometheus Alertmanager (Debian's prometheus-alertmanager) against the service: it delivers
 * to the integration's push URL as its webhook receiver, and is pulled from on demand. Alerts are
 * posted to Alertmanager's own API (/api/v2/alerts). Health goes from healthy to degraded, with a
 * reason, once Alertmanager is stopped and the freshness window has passed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { eventually, rest, subscribe, wsClient } from './helpers/http.js';
import { startAlertmanager, type Peer } from './helpers/peers.js';

let s: TestServer;
let t: BuiltTenant;
let memberToken: string;
let am: Peer | undefined;
let integrationId: string;
let pushToken: string;
const peers: Peer[] = [];

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1', INTEGRATION_INGEST_PER_MINUTE: '100' } });
  t = await buildTenant(s.app.rt);
  memberToken = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
});
afterAll(async () => {
  for (const p of peers) await p.stop();
  await s?.stop();
});

function amConfig(receivers: Array<{ url: string; token: string }>): string {
  return [
    'global:',
    '  resolve_timeout: 5s',
    'route:',
    '  receiver: ops',
    "  group_by: ['alertname']",
    '  group_wait: 1s',
    '  group_interval: 1s',
    '  repeat_interval: 1h',
    'receivers:',
    '  - name: ops',
    '    webhook_configs:',
    ...receivers.flatMap((r) => [
      `      - url: '${r.url}'`,
      '        send_resolved: true',
      '        http_config:',
      '          authorization:',
      '            type: Bearer',
      `            credentials: '${r.token}'`,
    ]),
    '',
  ].join('\n');
}

/** Posts alerts to Alertmanager's own API, as Prometheus would. */
async function postToAlertmanager(peer: Peer, alerts: unknown[]): Promise<void> {
  const r = await fetch(peer.url + '/api/v2/alerts', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(alerts),
  });
  expect(r.status).toBe(200);
}

async function ourAlerts(source: string) {
  const r = await rest(s.url, t.adminToken).get(`/alerts?source=${encodeURIComponent(source)}`);
  expect(r.status).toBe(200);
  return r.body.items as Array<{ id: string; status: string; severity: string; summary: string; count: number }>;
}

describe('alertmanager integration with a real Alertmanager', () => {
  it('an admin creates it and gets a push URL and a push token shown once', async () => {
    const created = await rest(s.url, t.adminToken).post('/integrations', {
      provider: 'alertmanager',
      name: 'prod-am',
      freshness_seconds: 3600,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      provider: 'alertmanager',
      name: 'prod-am',
      enabled: true,
      freshness_seconds: 3600,
      health: { status: 'unknown' },
    });
    expect(created.body.push_token).toMatch(/^sip_/);
    // Absolute, as over GraphQL: REST operations see the request URL (PUBLIC_BASE_URL unset here).
    expect(created.body.push_url).toBe(`${s.url}/api/v1/integrations/${created.body.id}/push`);
    integrationId = created.body.id;
    pushToken = created.body.push_token;
    const listed = await rest(s.url, t.adminToken).get('/integrations');
    expect(listed.body.items.map((i: { id: string }) => i.id)).toEqual([integrationId]);
    expect(JSON.stringify(listed.body)).not.toContain(pushToken);
  });

  it('delivers a firing alert and then its resolution: our alert opens, then resolves', async () => {
    am = await startAlertmanager(
      amConfig([{ url: `${s.url}/api/v1/integrations/${integrationId}/push`, token: pushToken }]),
    );
    peers.push(am);
    const patched = await rest(s.url, t.adminToken).patch(`/integrations/${integrationId}`, {
      config: { url: am.url },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.config).toEqual({ url: am.url });

    const labels = { alertname: 'DiskFull', severity: 'critical', instance: 'db-1:9100' };
    const startsAt = new Date().toISOString();
    await postToAlertmanager(am, [{ labels, annotations: { summary: 'Disk almost full' }, startsAt }]);
    const opened = await eventually(
      async () => (await ourAlerts('alertmanager/prod-am')).find((a) => a.status === 'open'),
      30_000,
      200,
    );
    expect(opened).toMatchObject({ severity: 'critical', summary: 'Disk almost full (db-1:9100)' });

    const events = await rest(s.url, t.adminToken).get('/events?module=integrations');
    const firing = events.body.find((e: { type: string }) => e.type === 'alertmanager.firing');
    expect(firing).toMatchObject({
      source: 'alertmanager/prod-am',
      severity: 'critical',
      labels: { ...labels, integration_id: integrationId },
    });
    expect(firing.payload).toMatchObject({
      status: 'firing',
      annotations: { summary: 'Disk almost full' },
      receiver: 'ops',
    });
    expect(firing.payload.fingerprint).toMatch(/^[0-9a-f]+$/);

    await postToAlertmanager(am, [
      { labels, annotations: { summary: 'Disk almost full' }, startsAt, endsAt: new Date().toISOString() },
    ]);
    const resolved = await eventually(
      async () => (await ourAlerts('alertmanager/prod-am')).find((a) => a.id === opened.id && a.status === 'resolved'),
      30_000,
      200,
    );
    expect(resolved.id).toBe(opened.id);
    const after = await rest(s.url, t.adminToken).get('/events?module=integrations');
    expect(
      after.body.some(
        (e: { type: string; payload: { fingerprint: string } }) =>
          e.type === 'alertmanager.resolved' && e.payload.fingerprint === firing.payload.fingerprint,
      ),
    ).toBe(true);
    const integ = await rest(s.url, memberToken).get(`/integrations/${integrationId}`);
    expect(integ.body.last_event_at).not.toBeNull();
  });

  it('pulls the active alerts of /api/v2/alerts on demand (a member may trigger it), and resolves what is no longer active', async () => {
    const pullOnly = await rest(s.url, t.adminToken).post('/integrations', {
      provider: 'alertmanager',
      name: 'pull-only',
      config: { url: am!.url },
    });
    expect(pullOnly.status).toBe(201);
    const labels = { alertname: 'QueueStuck', severity: 'warning', queue: 'billing' };
    const startsAt = new Date().toISOString();
    await postToAlertmanager(am!, [{ labels, annotations: { summary: 'Queue stuck' }, startsAt }]);
    const outcome = await eventually(
      async () => {
        const r = await rest(s.url, memberToken).post('/integrations/alertmanager/ingest');
        expect(r.status).toBe(200);
        const mine = r.body.integrations.find((x: { integration_id: string }) => x.integration_id === pullOnly.body.id);
        return mine.alerts_opened === 1 ? mine : null;
      },
      20_000,
      300,
    );
    expect(outcome).toMatchObject({ ok: true, events: 1, error: null, summary: { active: 1 } });
    const open = await ourAlerts('alertmanager/pull-only');
    expect(open).toEqual([expect.objectContaining({ status: 'open', severity: 'warning', summary: 'Queue stuck' })]);

    // Pulling again records nothing new while it stays active.
    const again = await rest(s.url, memberToken).post('/integrations/alertmanager/ingest');
    expect(
      again.body.integrations.find((x: { integration_id: string }) => x.integration_id === pullOnly.body.id),
    ).toMatchObject({ ok: true, events: 0, alerts_opened: 0 });

    await postToAlertmanager(am!, [
      { labels, annotations: { summary: 'Queue stuck' }, startsAt, endsAt: new Date().toISOString() },
    ]);
    await eventually(
      async () => {
        const r = await rest(s.url, memberToken).post('/integrations/alertmanager/ingest');
        return (
          r.body.integrations.find((x: { integration_id: string }) => x.integration_id === pullOnly.body.id)
            .alerts_resolved === 1
        );
      },
      20_000,
      300,
    );
    expect(await ourAlerts('alertmanager/pull-only')).toEqual([expect.objectContaining({ status: 'resolved' })]);
    expect((await rest(s.url, t.adminToken).delete(`/integrations/${pullOnly.body.id}`)).status).toBe(204);
  });

  it('reports healthy, then degraded with a reason once Alertmanager is stopped and the freshness window passes', async () => {
    const healthy = await rest(s.url, memberToken).get(`/integrations/${integrationId}/health?refresh=true`);
    expect(healthy.status).toBe(200);
    expect(healthy.body).toMatchObject({ integration_id: integrationId, status: 'healthy', reason: null });
    expect(healthy.body.checks.config).toEqual({ ok: true, problems: [] });
    expect(healthy.body.checks.reachable.ok).toBe(true);
    expect(healthy.body.checks.reachable.latency_ms).toBeGreaterThanOrEqual(0);
    expect(healthy.body.checks.freshness).toMatchObject({ ok: true, expected_seconds: 3600 });
    expect(healthy.body.checks.errors).toMatchObject({ ok: true, count: 0 });

    const ws = wsClient(s.url, memberToken);
    const sub = subscribe(
      ws,
      'subscription($id: ID) { integrationHealthChanged(integrationId: $id) { integrationId status previousStatus reason } }',
      { id: integrationId },
    );
    try {
      expect(
        (await rest(s.url, t.adminToken).patch(`/integrations/${integrationId}`, { freshness_seconds: 1 })).status,
      ).toBe(200);
      await am!.stop();
      const degraded = await eventually(
        async () => {
          const r = await rest(s.url, memberToken).get(`/integrations/${integrationId}/health?refresh=true`);
          return r.body.status === 'degraded' && r.body.checks.freshness.ok === false ? r.body : null;
        },
        30_000,
        300,
      );
      expect(degraded.checks.reachable).toMatchObject({ ok: false, latency_ms: null });
      expect(degraded.reason).toMatch(/unreachable/);
      expect(degraded.reason).toMatch(/stale: last event \d+ s ago, expected every 1 s/);
      expect(degraded.history[0]).toMatchObject({ status: 'degraded' });
      expect(degraded.history.some((h: { status: string }) => h.status === 'healthy')).toBe(true);

      const change = await sub.next(15_000);
      expect(change.data.integrationHealthChanged).toMatchObject({
        integrationId,
        status: 'DEGRADED',
        previousStatus: 'HEALTHY',
      });

      const events = await rest(s.url, t.adminToken).get('/events?module=integrations');
      const ev = events.body.find((e: { type: string }) => e.type === 'integration.degraded');
      expect(ev).toMatchObject({
        severity: 'warning',
        labels: { integration_id: integrationId, status: 'degraded', previous_status: 'healthy' },
      });
      const listed = await rest(s.url, memberToken).get('/integrations');
      expect(listed.body.items[0].health).toMatchObject({ status: 'degraded' });
    } finally {
      sub.dispose();
      await ws.dispose();
    }
  });
});
