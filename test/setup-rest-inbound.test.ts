/**
 * The REST a script needs to set a tenant up (issue 16, "the first hour"), inbound side: inbound webhooks
 * whose URL and secret record a signed event (rotation keeps the old secret for 24 h) and ingest key
 * rotation; 401, 403 for members, 404 for another tenant's object, 422 naming the field. Set-up:
 * test/helpers/setup-rest-suite.ts.
 */
import { describe, expect, it } from 'vitest';
import { buildTenant, buildToken, buildUser } from './factories.js';
import { call, rest } from './helpers/http.js';
import { ingest, locs, memberToken, other, s, sign, t, uniq, useSetupRestSuite } from './helpers/setup-rest-suite.js';

useSetupRestSuite();

describe('inbound webhooks and ingest keys over REST', () => {
  it('an admin creates an inbound webhook whose URL and secret record a signed event; rotation keeps the old secret for 24 h', async () => {
    const admin = rest(s.url, t.adminToken);
    const created = await admin.post('/inbound-webhooks', { name: `GitHub ${uniq()}` });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ kind: 'events', previous_secret_valid_until: null });
    expect(created.body.url).toBe(`${s.url}/api/v1/webhooks/${created.body.slug}`);
    const post = (secret: string) => {
      const raw = JSON.stringify({
        source: 'github',
        kind: 'deploy.finished',
        severity: 'info',
        labels: {},
        payload: {},
      });
      return call(created.body.url, 'POST', '', { headers: { 'X-Service-Signature': sign(secret, raw) }, raw });
    };
    expect((await post(created.body.secret)).status).toBe(202);

    const listed = await rest(s.url, memberToken).get('/inbound-webhooks?kind=events');
    expect(listed.status).toBe(200);
    const mine = listed.body.items.find((w: { id: string }) => w.id === created.body.id);
    expect(mine).toMatchObject({ slug: created.body.slug, url: created.body.url });
    expect(mine.secret).toBeUndefined();
    expect(
      (await admin.get('/inbound-webhooks?kind=sot')).body.items.some((w: { id: string }) => w.id === created.body.id),
    ).toBe(false);

    const rotated = await admin.post(`/inbound-webhooks/${created.body.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    expect(Date.parse(rotated.body.previous_secret_valid_until)).toBeGreaterThan(Date.now());
    expect((await post(rotated.body.secret)).status).toBe(202);
    expect((await post(created.body.secret)).status).toBe(202);
    expect((await post('whsec_wrong')).status).toBe(401);
  });

  it("401, 403 for a member, 404 for another tenant's inbound webhook, 422 naming the field", async () => {
    expect((await rest(s.url).get('/inbound-webhooks')).status).toBe(401);
    const member = rest(s.url, memberToken);
    expect((await member.post('/inbound-webhooks', { name: 'nope' })).status).toBe(403);
    const theirs = await rest(s.url, other.adminToken).post('/inbound-webhooks', { name: `theirs ${uniq()}` });
    expect((await rest(s.url, t.adminToken).post(`/inbound-webhooks/${theirs.body.id}/rotate-secret`)).status).toBe(
      404,
    );
    const noName = await rest(s.url, t.adminToken).post('/inbound-webhooks', {});
    expect(noName.status).toBe(422);
    expect(locs(noName.body)).toEqual(['body.name']);
    const badKind = await rest(s.url, t.adminToken).post('/inbound-webhooks', { name: 'x', kind: 'mail' });
    expect(badKind.status).toBe(422);
    expect(locs(badKind.body)[0]).toMatch(/^body\.kind/);
    const badQuery = await rest(s.url, t.adminToken).get('/inbound-webhooks?kind=mail');
    expect(badQuery.status).toBe(422);
    expect(locs(badQuery.body)[0]).toMatch(/^query\.kind/);
  });

  it('an admin rotates the ingest key: the new key ingests, the old one keeps working, members get 403', async () => {
    const tenant = await buildTenant(s.app.rt);
    const admin = rest(s.url, tenant.adminToken);
    const rotated = await admin.post('/ingest-keys/rotate');
    expect(rotated.status).toBe(201);
    expect(rotated.body.key).toMatch(/^sik_/);
    expect(rotated.body.key.startsWith(rotated.body.key_prefix)).toBe(true);
    expect(Date.parse(rotated.body.previous_valid_until)).toBeGreaterThan(Date.now());
    expect((await ingest(rotated.body.key, { type: 'x.y', source: 'new' })).status).toBe(202);
    expect((await ingest(tenant.ingestKey, { type: 'x.y', source: 'old' })).status).toBe(202);
    const keys = await admin.get('/ingest-keys');
    expect(keys.status).toBe(200);
    expect(keys.body.items).toHaveLength(2);
    expect(keys.body.items[0]).toMatchObject({ id: rotated.body.id, valid_until: null });
    expect(JSON.stringify(keys.body)).not.toContain(rotated.body.key);

    const memberOfIt = rest(s.url, await buildToken(s.app.rt, await buildUser(s.app.rt, tenant.tenantId)));
    expect((await memberOfIt.post('/ingest-keys/rotate')).status).toBe(403);
    expect((await memberOfIt.get('/ingest-keys')).status).toBe(403);
    expect((await rest(s.url).post('/ingest-keys/rotate')).status).toBe(401);
  });
});
