/**
 * Issue 40, item 9: every rotation (personal access tokens, inbound and outbound webhook secrets, integration
 * push tokens, ingest keys) happens once per grace period: rotating again while the replaced secret still
 * works is a 409 naming when it ends, and 8 parallel rotations leave exactly one new secret. The cluster
 * invite command is shell-quoted and its hub URL has no shell metacharacters (the command is run through
 * bash here to show that nothing in it is executed).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { rest, type HttpResult } from './helpers/http.js';
import { joinCommand } from '../src/clusters/hub.js';

let s: TestServer;
let t: BuiltTenant;

beforeAll(async () => {
  s = await startTestServer();
  t = await buildTenant(s.app.rt);
});
afterAll(async () => {
  await s?.stop();
});

const api = () => rest(s.url, t.adminToken);

/** Rotates twice in a row (the second is a 409), then 8 times at once on a fresh object (one succeeds). */
async function rotatesOnce(fresh: () => Promise<string>, rotate: (id: string) => Promise<HttpResult>, ok = 200) {
  const id = await fresh();
  expect((await rotate(id)).status).toBe(ok);
  const again = await rotate(id);
  expect(again.status).toBe(409);
  expect(again.body.code).toBe('ROTATION_IN_GRACE');
  expect(again.body.detail).toMatch(/still works until \d{4}-/);
  const parallel = await fresh();
  const answers = await Promise.all(Array.from({ length: 8 }, () => rotate(parallel)));
  expect(answers.map((a) => a.status).sort()).toEqual([ok, 409, 409, 409, 409, 409, 409, 409]);
  return parallel;
}

describe('rotation happens once per grace period', () => {
  it('personal access tokens', async () => {
    const mint = async () => (await api().post('/auth/tokens', { name: 'rot', expires_in_days: 30 })).body.id as string;
    const id = await rotatesOnce(mint, (tokenId) => api().post(`/auth/tokens/${tokenId}/rotate`), 201);
    // Two tokens minted, each replaced exactly once: four in all, and the parallel one points at one.
    expect(await s.app.rt.prisma.accessToken.count({ where: { name: 'rot' } })).toBe(4);
    const replaced = await s.app.rt.prisma.accessToken.findUniqueOrThrow({ where: { id } });
    expect(await s.app.rt.prisma.accessToken.count({ where: { id: replaced.rotatedToId! } })).toBe(1);
  });

  it('inbound webhook secrets', async () => {
    const create = async () => (await api().post('/inbound-webhooks', { name: 'rot' })).body.id as string;
    await rotatesOnce(create, (id) => api().post(`/inbound-webhooks/${id}/rotate-secret`));
  });

  it('outbound webhook secrets', async () => {
    const create = async () =>
      (
        await s.app.rt.prisma.outboundWebhook.create({
          data: {
            tenantId: t.tenantId,
            name: 'rot',
            url: 'https://receiver.example/hook',
            triggers: [{ on: 'alert.opened' }],
            secretCiphertext: s.app.rt.secretBox.seal('whsec_' + Buffer.from('x'.repeat(32)).toString('base64')),
          },
        })
      ).id;
    await rotatesOnce(create, (id) => api().post(`/outbound-webhooks/${id}/rotate-secret`));
  });

  it('integration push tokens', async () => {
    let n = 0;
    const create = async () =>
      (await api().post('/integrations', { provider: 'alertmanager', name: `rot-${n++}` })).body.id as string;
    await rotatesOnce(create, (id) => api().post(`/integrations/${id}/rotate-token`));
  });

  it("ingest keys: parallel rotations leave one new key, and the tenant's keys are the old one in grace and it", async () => {
    const other = await buildTenant(s.app.rt);
    const rotate = () => rest(s.url, other.adminToken).post('/ingest-keys/rotate');
    const answers = await Promise.all(Array.from({ length: 8 }, rotate));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    expect(answers.find((a) => a.status === 409)!.body.code).toBe('ROTATION_IN_GRACE');
    expect(await s.app.rt.prisma.ingestKey.count({ where: { tenantId: other.tenantId } })).toBe(2);
    expect((await rotate()).status).toBe(409);
  });
});

describe('the cluster invite command', () => {
  it('refuses a hub_url with shell metacharacters with 422 and mints nothing', async () => {
    for (const hubUrl of [
      'http://127.0.0.1:8095/$(id)',
      'http://127.0.0.1:8095/`id`',
      'http://127.0.0.1:8095/;id',
      "http://127.0.0.1:8095/'x'",
      'http://127.0.0.1:8095/a b',
      'http://u:p@127.0.0.1:8095/',
      'file:///etc/passwd',
    ]) {
      const r = await api().post('/clusters/invite', { hub_url: hubUrl });
      expect(r.status, hubUrl).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['body', 'hub_url']);
    }
    expect(await s.app.rt.prisma.clusterInvite.count({ where: { tenantId: t.tenantId } })).toBe(0);
    const ok = await api().post('/clusters/invite', { hub_url: 'https://hub.example.net:8443/ops' });
    expect(ok.status).toBe(201);
    expect(ok.body.command).toContain(`--hub 'https://hub.example.net:8443/ops' --invite '${ok.body.token}'`);
  });

  it('quotes every value, so a pasted command runs nothing that a value carries', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'invite-quote-'));
    const marker = path.join(dir, 'ran');
    try {
      const nasty = `http://h/$(touch ${marker})'$(touch ${marker})'\`touch ${marker}\``;
      const command = joinCommand(nasty, "sci_a'b");
      // The command's words, printed one per line by bash in place of the CLI.
      const words = execFileSync(
        'bash',
        ['-c', command.replace(/^npm run --silent ops -- /, "printf '%s\\n' ").replace('<name>', 'edge-1')],
        {
          encoding: 'utf8',
        },
      ).split('\n');
      expect(words.slice(0, 5)).toEqual(['cluster', 'join', '--hub', nasty, '--invite']);
      expect(words[5]).toBe("sci_a'b");
      expect(fs.existsSync(marker)).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
