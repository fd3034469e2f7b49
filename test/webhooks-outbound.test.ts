/**
 * Outbound webhook management over GraphQL: create (the secret once, revealed to admins later, stored
 * sealed), update, delete; 401/403/NOT_FOUND; address and trigger validation with field-level 422s.
 * Deliveries: test/webhooks-outbound-deliveries.test.ts. Set-up: test/helpers/webhooks-outbound-suite.ts.
 */
import { describe, expect, it } from 'vitest';
import { gql } from './helpers/http.js';
import {
  CREATE,
  WEBHOOK_FIELDS,
  alertBody,
  announce,
  createWebhook,
  memberToken,
  other,
  receiver,
  s,
  settled,
  t,
  useOutboundSuite,
} from './helpers/webhooks-outbound-suite.js';

useOutboundSuite();

describe('outbound webhook management', () => {
  it('createOutboundWebhook returns the id and a whsec_ secret that admins can reveal later', async () => {
    const rcv = await receiver();
    const created = await createWebhook(rcv.url, [{ on: 'ALERT_OPENED', severities: ['CRITICAL'] }]);
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.webhook).toMatchObject({
      url: rcv.url,
      enabled: true,
      triggers: [{ on: 'ALERT_OPENED', severities: ['CRITICAL'], kinds: null }],
    });
    const revealed = await gql(
      s.url,
      t.adminToken,
      'mutation($id: ID!) { revealOutboundWebhookSecret(id: $id) { webhookId secret } }',
      { id: created.id },
    );
    expect(revealed.data.revealOutboundWebhookSecret).toEqual({ webhookId: created.id, secret: created.secret });
    const list = await gql(s.url, memberToken, '{ outboundWebhooks { id name } }');
    expect(list.data.outboundWebhooks.map((w: any) => w.id)).toContain(created.id);
  });

  it('stores the secret sealed, never in clear', async () => {
    const created = await createWebhook((await receiver()).url);
    const row = await s.app.rt.prisma.outboundWebhook.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.secretCiphertext).not.toContain(created.secret.slice(6, 20));
    expect(s.app.rt.secretBox.open(row.secretCiphertext)).toBe(created.secret);
  });

  it('updates name, triggers and enabled; deletes', async () => {
    const created = await createWebhook((await receiver()).url);
    const upd = await gql(
      s.url,
      t.adminToken,
      `mutation($id: ID!, $input: UpdateOutboundWebhookInput!) { updateOutboundWebhook(id: $id, input: $input) { ${WEBHOOK_FIELDS} } }`,
      {
        id: created.id,
        input: {
          name: 'renamed',
          enabled: false,
          triggers: [
            { on: 'PROPOSAL_APPROVED', kinds: ['firmware'] },
            {
              on: 'EVENT',
              typeGlob: 'deploy.*',
              labels: { env: 'prod' },
              payloadConditions: [{ path: 'build.status', op: 'EQ', value: 'failed' }],
            },
          ],
        },
      },
    );
    expect(upd.errors).toBeUndefined();
    expect(upd.data.updateOutboundWebhook).toMatchObject({
      name: 'renamed',
      enabled: false,
      triggers: [
        { on: 'PROPOSAL_APPROVED', kinds: ['firmware'] },
        {
          on: 'EVENT',
          typeGlob: 'deploy.*',
          labels: { env: 'prod' },
          payloadConditions: [{ path: 'build.status', op: 'EQ', value: 'failed' }],
        },
      ],
    });
    const del = await gql(s.url, t.adminToken, 'mutation($id: ID!) { deleteOutboundWebhook(id: $id) }', {
      id: created.id,
    });
    expect(del.data.deleteOutboundWebhook).toBe(created.id);
    const gone = await gql(s.url, t.adminToken, 'query($id: ID!) { webhook: outboundWebhook(id: $id) { id } }', {
      id: created.id,
    });
    expect(gone.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('returns 401 without a credential and 403 to members on every write', async () => {
    const anon = await gql(s.url, undefined, CREATE, {
      input: { name: 'x', url: 'http://127.0.0.1:1/', triggers: [{ on: 'ALERT_OPENED' }] },
    });
    expect(anon.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    const created = await createWebhook((await receiver()).url);
    const attempts = [
      [CREATE, { input: { name: 'x', url: 'http://127.0.0.1:1/', triggers: [{ on: 'ALERT_OPENED' }] } }],
      ['mutation($id: ID!) { updateOutboundWebhook(id: $id, input: { name: "m" }) { id } }', { id: created.id }],
      ['mutation($id: ID!) { deleteOutboundWebhook(id: $id) }', { id: created.id }],
      ['mutation($id: ID!) { revealOutboundWebhookSecret(id: $id) { secret } }', { id: created.id }],
      ['mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret } }', { id: created.id }],
      ['mutation($id: ID!) { redeliver(deliveryId: $id) { id } }', { id: created.id }],
    ] as const;
    for (const [q, v] of attempts) {
      const r = await gql(s.url, memberToken, q, v);
      expect(r.errors?.[0].extensions?.code, q).toBe('FORBIDDEN');
    }
  });

  it("returns NOT_FOUND for another tenant's webhook and delivery", async () => {
    const mine = await createWebhook((await receiver()).url);
    await announce('alert.opened', alertBody());
    const w = await settled(mine.id);
    const deliveryId = w.deliveries[0].id;
    const ops = [
      ['query($id: ID!) { webhook: outboundWebhook(id: $id) { id } }', { id: mine.id }],
      ['query($id: ID!) { delivery(id: $id) { id } }', { id: deliveryId }],
      ['mutation($id: ID!) { updateOutboundWebhook(id: $id, input: { name: "x" }) { id } }', { id: mine.id }],
      ['mutation($id: ID!) { deleteOutboundWebhook(id: $id) }', { id: mine.id }],
      ['mutation($id: ID!) { revealOutboundWebhookSecret(id: $id) { secret } }', { id: mine.id }],
      ['mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret } }', { id: mine.id }],
      ['mutation($id: ID!) { redeliver(deliveryId: $id) { id } }', { id: deliveryId }],
    ] as const;
    for (const [q, v] of ops) {
      const r = await gql(s.url, other.adminToken, q, v);
      expect(r.errors?.[0].extensions?.code, q).toBe('NOT_FOUND');
    }
    const list = await gql(s.url, other.adminToken, '{ outboundWebhooks { id } }');
    expect(list.data.outboundWebhooks).toEqual([]);
  });

  it('rejects private addresses, bad URLs and filters that do not fit the trigger with field-level 422s', async () => {
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ name: 'x', url: 'http://10.0.0.1/hook', triggers: [{ on: 'ALERT_OPENED' }] }, ['input', 'url']],
      [
        { name: 'x', url: 'http://169.254.169.254/latest/meta-data', triggers: [{ on: 'ALERT_OPENED' }] },
        ['input', 'url'],
      ],
      [{ name: 'x', url: 'http://127.0.0.2:9/hook', triggers: [{ on: 'ALERT_OPENED' }] }, ['input', 'url']],
      [{ name: 'x', url: 'file:///etc/passwd', triggers: [{ on: 'ALERT_OPENED' }] }, ['input', 'url']],
      [{ name: '', url: 'http://127.0.0.1:9/', triggers: [{ on: 'ALERT_OPENED' }] }, ['input', 'name']],
      [{ name: 'x', url: 'http://127.0.0.1:9/', triggers: [] }, ['input', 'triggers']],
      [
        { name: 'x', url: 'http://127.0.0.1:9/', triggers: [{ on: 'ALERT_OPENED', kinds: ['x'] }] },
        ['input', 'triggers', '0', 'kinds'],
      ],
      [
        { name: 'x', url: 'http://127.0.0.1:9/', triggers: [{ on: 'PROPOSAL_OPENED', severities: ['CRITICAL'] }] },
        ['input', 'triggers', '0', 'severities'],
      ],
      [
        { name: 'x', url: 'http://127.0.0.1:9/', triggers: [{ on: 'EVENT', labels: { env: 1 } }] },
        ['input', 'triggers', '0', 'labels'],
      ],
      [
        {
          name: 'x',
          url: 'http://127.0.0.1:9/',
          triggers: [{ on: 'EVENT', payloadConditions: [{ path: 'a..b', op: 'EQ', value: 1 }] }],
        },
        ['input', 'triggers', '0', 'payloadConditions', '0', 'path'],
      ],
    ];
    for (const [input, loc] of cases) {
      const r = await gql(s.url, t.adminToken, CREATE, { input });
      expect(r.errors?.[0].extensions?.code, JSON.stringify(input)).toBe('BAD_USER_INPUT');
      expect(
        (r.errors?.[0].extensions?.fields as any[]).map((f) => f.loc),
        JSON.stringify(input),
      ).toContainEqual(loc);
    }
    const created = await createWebhook((await receiver()).url);
    const upd = await gql(
      s.url,
      t.adminToken,
      'mutation($id: ID!) { updateOutboundWebhook(id: $id, input: { url: "http://192.168.1.10/" }) { id } }',
      { id: created.id },
    );
    expect(upd.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });
});
