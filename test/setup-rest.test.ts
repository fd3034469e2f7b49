/**
 * The REST a script needs to set a tenant up (issue 16, "the first hour"): alert rules (match and
 * heartbeat) and outbound webhooks with their deliveries (inbound webhooks and ingest keys:
 * test/setup-rest-inbound.test.ts). Per route:
 * success (and its effect: a rule opens an alert, a webhook receives a signed delivery, a rotated
 * secret or key works), 401, 403 for members where admins only may act, 404 for another tenant's
 * object, 422 naming the field.
 */
import { describe, expect, it } from 'vitest';
import { eventually, rest } from './helpers/http.js';
import {
  ingest,
  locs,
  memberToken,
  other,
  receiver,
  s,
  sign,
  t,
  uniq,
  useSetupRestSuite,
} from './helpers/setup-rest-suite.js';

useSetupRestSuite();

describe('alert rules over REST', () => {
  it(
    'an admin creates a match rule; the next matching event opens an alert; get, list, patch and delete work',
    { timeout: 60_000 },
    async () => {
      const admin = rest(s.url, t.adminToken);
      const type = `deploy${uniq()}.failed`;
      const created = await admin.post('/alert-rules', {
        name: 'Deploy failures',
        type_glob: `${type.split('.')[0]}.*`,
        severities: ['critical'],
        alert_severity: 'critical',
        labels: { env: 'prod' },
        payload_conditions: [{ path: 'attempt', op: 'gte', value: 2 }],
        summary_template: '{{type}} on {{source}}',
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        name: 'Deploy failures',
        kind: 'match',
        enabled: true,
        severities: ['critical'],
        alert_severity: 'critical',
        labels: { env: 'prod' },
        payload_conditions: [{ path: 'attempt', op: 'gte', value: 2 }],
        window_seconds: null,
      });
      const id = created.body.id;

      expect(
        (
          await ingest(t.ingestKey, {
            type,
            source: 'ci',
            severity: 'critical',
            labels: { env: 'prod' },
            payload: { attempt: 3 },
          })
        ).status,
      ).toBe(202);
      const alert = await eventually(async () => (await admin.get(`/alerts?rule=${id}`)).body.items?.[0], 30_000);
      expect(alert).toMatchObject({ severity: 'critical', summary: `${type} on ci` });

      expect((await admin.get(`/alert-rules/${id}`)).body).toEqual(created.body);
      const member = rest(s.url, memberToken);
      const listed = await member.get('/alert-rules?kind=match');
      expect(listed.status).toBe(200);
      expect(listed.body.items.map((r: { id: string }) => r.id)).toContain(id);
      expect((await member.get('/alert-rules?kind=absence')).body.items.map((r: { id: string }) => r.id)).not.toContain(
        id,
      );

      const patched = await admin.patch(`/alert-rules/${id}`, { enabled: false, labels: null });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ id, enabled: false, labels: {}, name: 'Deploy failures' });
      expect((await admin.get('/alert-rules?enabled=false')).body.items.map((r: { id: string }) => r.id)).toContain(id);

      expect((await admin.delete(`/alert-rules/${id}`)).status).toBe(204);
      expect((await admin.get(`/alert-rules/${id}`)).status).toBe(404);
      // The alert stays, detached from the deleted rule.
      expect((await admin.get(`/alerts/${alert.id}`)).status).toBe(200);
    },
  );

  it('creates a heartbeat (absence) rule, and names the field when window_seconds is missing or wrong', async () => {
    const admin = rest(s.url, t.adminToken);
    const ok = await admin.post('/alert-rules', {
      name: 'Heartbeat',
      kind: 'absence',
      type_glob: 'heartbeat',
      window_seconds: 300,
    });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ kind: 'absence', window_seconds: 300, alert_severity: 'warning' });

    const missing = await admin.post('/alert-rules', { name: 'Heartbeat', kind: 'absence', type_glob: 'heartbeat' });
    expect(missing.status).toBe(422);
    expect(locs(missing.body)).toEqual(['body.window_seconds']);
    const onMatch = await admin.post('/alert-rules', { name: 'x', window_seconds: 60 });
    expect(onMatch.status).toBe(422);
    expect(locs(onMatch.body)).toEqual(['body.window_seconds']);
    const noKind = await admin.patch(`/alert-rules/${ok.body.id}`, { kind: 'match' });
    expect(noKind.status).toBe(422);
    expect(JSON.stringify(noKind.body.detail)).toContain('kind');
  });

  it('422 names the field: a missing name, a bad glob, a non-number for gt, an unknown severity', async () => {
    const admin = rest(s.url, t.adminToken);
    const noName = await admin.post('/alert-rules', { type_glob: 'a.*' });
    expect(noName.status).toBe(422);
    expect(locs(noName.body)).toContain('body.name');
    const many = await admin.post('/alert-rules', {
      name: 'bad',
      type_glob: 'a b',
      payload_conditions: [{ path: 'x', op: 'gt', value: 'high' }],
    });
    expect(many.status).toBe(422);
    expect(locs(many.body).sort()).toEqual(['body.payload_conditions.0.value', 'body.type_glob']);
    const sev = await admin.post('/alert-rules', { name: 'bad', severities: ['fatal'] });
    expect(sev.status).toBe(422);
    expect(locs(sev.body)[0]).toMatch(/^body\.severities/);
  });

  it("401 without a credential; 403 for a member writing; 404 for another tenant's rule", async () => {
    expect((await rest(s.url).get('/alert-rules')).status).toBe(401);
    expect((await rest(s.url).post('/alert-rules', { name: 'x' })).status).toBe(401);
    const member = rest(s.url, memberToken);
    const denied = await member.post('/alert-rules', { name: 'x' });
    expect(denied.status).toBe(403);
    const theirs = await rest(s.url, other.adminToken).post('/alert-rules', { name: 'theirs', type_glob: 'x.*' });
    expect(theirs.status).toBe(201);
    expect((await member.patch(`/alert-rules/${theirs.body.id}`, { enabled: false })).status).toBe(403);
    const admin = rest(s.url, t.adminToken);
    expect((await admin.get(`/alert-rules/${theirs.body.id}`)).status).toBe(404);
    expect((await admin.patch(`/alert-rules/${theirs.body.id}`, { enabled: false })).status).toBe(404);
    expect((await admin.delete(`/alert-rules/${theirs.body.id}`)).status).toBe(404);
    expect((await admin.get('/alert-rules')).body.items.map((r: { id: string }) => r.id)).not.toContain(theirs.body.id);
    expect((await rest(s.url, other.adminToken).get(`/alert-rules/${theirs.body.id}`)).body.enabled).toBe(true);
  });
});

describe('outbound webhooks over REST', () => {
  it(
    'an admin creates one (secret shown once); an alert is delivered signed; deliveries list attempts; redeliver, rotate, patch, delete',
    { timeout: 120_000 },
    async () => {
      const admin = rest(s.url, t.adminToken);
      const created = await admin.post('/outbound-webhooks', {
        name: 'pager',
        url: `${receiver.url}/pager`,
        triggers: [{ on: 'alert.opened', severities: ['critical'] }],
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        name: 'pager',
        enabled: true,
        triggers: [{ on: 'alert.opened', severities: ['critical'] }],
        last_failure_at: null,
      });
      expect(created.body.secret).toMatch(/^whsec_/);
      const id = created.body.id;
      const listed = await rest(s.url, memberToken).get('/outbound-webhooks');
      expect(listed.status).toBe(200);
      const mine = listed.body.items.find((w: { id: string }) => w.id === id);
      expect(mine).toBeDefined();
      expect(mine.secret).toBeUndefined();
      expect((await admin.get(`/outbound-webhooks/${id}`)).body).toEqual(mine);

      // A rule and an event: the alert it opens is delivered to the receiver, signed with the secret.
      const type = `hook${uniq()}.down`;
      expect(
        (await admin.post('/alert-rules', { name: 'down', type_glob: type, alert_severity: 'critical' })).status,
      ).toBe(201);
      expect((await ingest(t.ingestKey, { type, source: 'probe', severity: 'critical' })).status).toBe(202);
      const got = await eventually(async () => receiver.requests.find((r) => r.path === '/hook/pager'), 30_000);
      expect(got.headers['x-service-event']).toBe('alert.opened');
      expect(got.headers['x-service-signature']).toBe(sign(created.body.secret, got.body));

      const deliveries = await eventually(async () => {
        const r = await admin.get(`/outbound-webhooks/${id}/deliveries`);
        return r.body.items?.[0]?.status === 'delivered' ? r : null;
      }, 30_000);
      const d = deliveries.body.items[0];
      expect(d).toMatchObject({ webhook_id: id, topic: 'alert.opened', status: 'delivered', attempt_count: 1 });
      expect(d.attempts[0]).toMatchObject({ number: 1, response_status: 200 });
      expect(d.id).toBe(got.headers['webhook-id']);
      expect((await admin.get(`/outbound-webhooks/${id}/deliveries?status=failed`)).body.items).toEqual([]);

      const again = await admin.post(`/deliveries/${d.id}/redeliver`);
      expect(again.status).toBe(202);
      // The answer is the row as read after the attempt was queued: a fast worker may have sent it already.
      expect(again.body.id).toBe(d.id);
      expect(['pending', 'delivered']).toContain(again.body.status);
      await eventually(
        async () => receiver.requests.filter((r) => r.headers['webhook-id'] === d.id).length === 2,
        30_000,
      );

      const rotated = await admin.post(`/outbound-webhooks/${id}/rotate-secret`);
      expect(rotated.status).toBe(200);
      expect(rotated.body.webhook_id).toBe(id);
      expect(rotated.body.secret).toMatch(/^whsec_/);
      expect(rotated.body.secret).not.toBe(created.body.secret);
      expect(Date.parse(rotated.body.previous_secret_valid_until)).toBeGreaterThan(Date.now());

      const patched = await admin.patch(`/outbound-webhooks/${id}`, {
        enabled: false,
        triggers: [{ on: 'proposal.opened', kinds: ['config'] }],
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ enabled: false, triggers: [{ on: 'proposal.opened', kinds: ['config'] }] });

      expect((await admin.delete(`/outbound-webhooks/${id}`)).status).toBe(204);
      expect((await admin.get(`/outbound-webhooks/${id}`)).status).toBe(404);
    },
  );

  it('422 names the field: a missing url, an unknown trigger, a URL that is not one', async () => {
    const admin = rest(s.url, t.adminToken);
    const noUrl = await admin.post('/outbound-webhooks', { name: 'x', triggers: [{ on: 'alert.opened' }] });
    expect(noUrl.status).toBe(422);
    expect(locs(noUrl.body)).toContain('body.url');
    const badTrigger = await admin.post('/outbound-webhooks', {
      name: 'x',
      url: `${receiver.url}/x`,
      triggers: [{ on: 'alert.exploded' }],
    });
    expect(badTrigger.status).toBe(422);
    expect(locs(badTrigger.body)[0]).toMatch(/^body\.triggers\.0\.on/);
    const notUrl = await admin.post('/outbound-webhooks', {
      name: 'x',
      url: 'not a url',
      triggers: [{ on: 'alert.opened' }],
    });
    expect(notUrl.status).toBe(422);
    expect(locs(notUrl.body)).toEqual(['body.url']);
    const hook = await admin.post('/outbound-webhooks', {
      name: 'q',
      url: `${receiver.url}/q`,
      triggers: [{ on: 'event.received', type_glob: 'ci.*' }],
    });
    expect(hook.status).toBe(201);
    expect(hook.body.triggers).toEqual([{ on: 'event.received', type_glob: 'ci.*' }]);
    const tooMany = await admin.get(`/outbound-webhooks/${hook.body.id}/deliveries?limit=1000`);
    expect(tooMany.status).toBe(422);
    expect(locs(tooMany.body)).toEqual(['query.limit']);
    const badStatus = await admin.get(`/outbound-webhooks/${hook.body.id}/deliveries?status=lost`);
    expect(badStatus.status).toBe(422);
    expect(locs(badStatus.body)).toEqual(['query.status']);
    const emptyPatch = await admin.patch(`/outbound-webhooks/${hook.body.id}`, {});
    expect(emptyPatch.status).toBe(422);
  });

  it("401 without a credential; 403 for a member; 404 for another tenant's webhook and delivery", async () => {
    expect((await rest(s.url).get('/outbound-webhooks')).status).toBe(401);
    const member = rest(s.url, memberToken);
    expect(
      (
        await member.post('/outbound-webhooks', {
          name: 'x',
          url: `${receiver.url}/x`,
          triggers: [{ on: 'alert.opened' }],
        })
      ).status,
    ).toBe(403);
    const theirs = await rest(s.url, other.adminToken).post('/outbound-webhooks', {
      name: 'theirs',
      url: `${receiver.url}/theirs`,
      triggers: [{ on: 'alert.opened' }],
    });
    expect(theirs.status).toBe(201);
    const wid = theirs.body.id;
    expect((await member.post(`/outbound-webhooks/${wid}/rotate-secret`)).status).toBe(403);
    const delivery = await s.app.rt.prisma.delivery.create({
      data: {
        tenantId: other.tenantId,
        webhookId: wid,
        topic: 'alert.opened',
        body: '{}',
        status: 'failed',
        failedAt: new Date(),
      },
    });
    const admin = rest(s.url, t.adminToken);
    expect((await admin.get(`/outbound-webhooks/${wid}`)).status).toBe(404);
    expect((await admin.patch(`/outbound-webhooks/${wid}`, { enabled: false })).status).toBe(404);
    expect((await admin.post(`/outbound-webhooks/${wid}/rotate-secret`)).status).toBe(404);
    expect((await admin.get(`/outbound-webhooks/${wid}/deliveries`)).status).toBe(404);
    expect((await admin.post(`/deliveries/${delivery.id}/redeliver`)).status).toBe(404);
    expect((await admin.delete(`/outbound-webhooks/${wid}`)).status).toBe(404);
    expect((await rest(s.url, other.adminToken).get(`/outbound-webhooks/${wid}`)).body.enabled).toBe(true);
  });
});
