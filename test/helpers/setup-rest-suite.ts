/**
 * Shared set-up of the tenant set-up REST tests (test/setup-rest*.test.ts): a receiver on 127.0.0.1, one
 * server allowing it, the caller's tenant with a member, another tenant; signing and location helpers.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from './server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from '../factories.js';
import { call } from './http.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

export let s: TestServer;
export let t: BuiltTenant;
export let other: BuiltTenant;
export let memberToken: string;
export let receiver: Receiver;

/** Registers the file's hooks: the receiver, server and tenants before; both closed after. */
export function useSetupRestSuite(): void {
  beforeAll(async () => {
    receiver = await startReceiver();
    s = await startTestServer({ env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1' } });
    [t, other] = await Promise.all([buildTenant(s.app.rt), buildTenant(s.app.rt)]);
    memberToken = await buildToken(s.app.rt, await buildUser(s.app.rt, t.tenantId));
  });
  afterAll(async () => {
    await s?.stop();
    await receiver?.close();
  });
}

export const uniq = () => crypto.randomBytes(3).toString('hex');
export const sign = (secret: string, raw: string) => crypto.createHmac('sha256', secret).update(raw).digest('hex');
export const locs = (body: { detail: Array<{ loc: string[] }> }) => body.detail.map((d) => d.loc.join('.'));

export async function ingest(key: string, body: Record<string, unknown>) {
  return call(s.url + '/api/v1', 'POST', '/events', { headers: { 'X-Service-Key': key }, body });
}
