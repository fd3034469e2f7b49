/**
 * Shared set-up of the console browser tests (test/console-*.test.ts): a real server and Debian's
 * chromium started together, the caller's tenant, the file's own data (`setUp`, which may assign the
 * file's variables), then a page signed in as the tenant's admin; browser and server closed after.
 * `ingest` posts an event and `api` runs GraphQL (failing on errors) as that tenant.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from './server.js';
import { buildTenant, type BuiltTenant } from '../factories.js';
import { gql, rest } from './http.js';
import { launchConsoleBrowser, signIn, type ConsoleBrowser } from './browser.js';

export let s: TestServer;
export let t: BuiltTenant;
export let b: ConsoleBrowser;
/** A page signed in as `t`'s admin. */
export let admin: Page;

export interface ConsoleSuiteOptions {
  /** The server's extra settings. */
  env?: Record<string, string>;
  /** The file's own data, after the tenant exists and before the admin signs in. */
  setUp?: () => Promise<void>;
  timeoutMs?: number;
}

/** Registers the file's hooks (see the module comment). */
export function useConsoleSuite(opts: ConsoleSuiteOptions = {}): void {
  beforeAll(async () => {
    [s, b] = await Promise.all([startTestServer({ env: opts.env }), launchConsoleBrowser()]);
    t = await buildTenant(s.app.rt);
    await opts.setUp?.();
    admin = await b.newPage();
    await signIn(admin, s.url, t.admin.email, t.adminPassword);
  }, opts.timeoutMs ?? 180_000);
  afterAll(async () => {
    await b?.close();
    await s?.stop();
  });
}

/** POST /events with the tenant's ingest key (the response, unchecked). */
export const ingest = (body: Record<string, unknown>) =>
  rest(s.url).post('/events', body, { headers: { 'x-service-key': t.ingestKey } });

/** A GraphQL call as `token` (the admin's by default) that must succeed; its data. */
export const api = async (query: string, variables?: Record<string, unknown>, token = t.adminToken) => {
  const r = await gql(s.url, token, query, variables);
  expect(r.errors).toBeUndefined();
  return r.data;
};
