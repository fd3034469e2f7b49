/**
 * The operator console in a real browser (chromium via playwright-core) against the real server:
 * serving at /, sign in and out, the live timeline, tokens. Screenshots: test-results/console/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { call, rest } from './helpers/http.js';
import { untilSubscribed } from './helpers/pubsub.js';
import { launchConsoleBrowser, openPage, screenshot, signIn, type ConsoleBrowser } from './helpers/browser.js';
import { SESSION_COOKIE } from '../src/principal.js';
import WebSocket from 'ws';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from 'graphql-ws';

/** graphql-ws over a WebSocket that sends the session cookie and an Origin, as a browser page would. */
async function cookieSocketViewer(cookie: string, origin: string): Promise<unknown> {
  class BrowserLikeSocket extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, { headers: { cookie: `${SESSION_COOKIE}=${cookie}`, origin } });
    }
  }
  const client = createClient({
    url: s.url.replace(/^http/, 'ws') + '/graphql',
    webSocketImpl: BrowserLikeSocket,
    retryAttempts: 0,
    lazy: true,
  });
  try {
    return await new Promise((resolve, reject) => {
      client.subscribe(
        { query: '{ viewer { user { email } } }' },
        { next: (r) => resolve(r), error: reject, complete: () => {} },
      );
    });
  } finally {
    await client.dispose();
  }
}

let s: TestServer;
let t: BuiltTenant;
let b: ConsoleBrowser;
let page: Page;
let minted: string;

beforeAll(async () => {
  [s, b] = await Promise.all([startTestServer(), launchConsoleBrowser()]);
  t = await buildTenant(s.app.rt);
  page = await b.newPage();
}, 180_000);

afterAll(async () => {
  await b?.close();
  await s?.stop();
});

describe('serving the console', () => {
  it('answers / and client-side routes with the console to a browser, and keeps JSON 404s for the API', async () => {
    const root = await call(s.url, 'GET', '/', { headers: { accept: 'text/html' } });
    expect(root.status).toBe(200);
    expect(root.headers.get('content-type')).toContain('text/html');
    expect(String(root.body)).toContain('<div id="root">');
    const deep = await call(s.url, 'GET', '/alerts/some-id', {
      headers: { accept: 'text/html,application/xhtml+xml' },
    });
    expect(deep.status).toBe(200);
    expect(String(deep.body)).toContain('<div id="root">');
    for (const p of ['/api/v1/no/such/thing', '/api/v2/x', '/nothing-here']) {
      const r = await call(s.url, 'GET', p);
      expect(r.status, p).toBe(404);
      expect(r.body, p).toEqual({ code: 'ROUTE_NOT_FOUND', detail: expect.any(String) });
    }
    const apiAsBrowser = await call(s.url, 'GET', '/api/v1/no/such/thing', { headers: { accept: 'text/html' } });
    expect(apiAsBrowser.status).toBe(404);
    expect(apiAsBrowser.body).toEqual({ code: 'ROUTE_NOT_FOUND', detail: expect.any(String) });
  });

  it('serves its hashed assets gzipped and cached for a year', async () => {
    const html = String((await call(s.url, 'GET', '/', { headers: { accept: 'text/html' } })).body);
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeTruthy();
    const gz = await fetch(s.url + script, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.status).toBe(200);
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('cache-control')).toContain('immutable');
    expect((await gz.text()).length).toBeGreaterThan(10_000);
    const plain = await fetch(s.url + script, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
  });

  it('loads each page as its own chunk, so the first load is the shell only', () => {
    const assets = join(process.cwd(), 'console', 'dist', 'assets');
    const js = readdirSync(assets).filter((f) => f.endsWith('.js'));
    const html = readFileSync(join(process.cwd(), 'console', 'dist', 'index.html'), 'utf8');
    const entry = /src="\/assets\/([^"]+\.js)"/.exec(html)?.[1];
    expect(js.length).toBeGreaterThan(1);
    expect(js).toContain(entry);
    for (const page of ['Reports', 'Billing', 'Gpu', 'Timeline'])
      expect(
        js.some((f) => f.startsWith(page + '-')),
        page,
      ).toBe(true);
    const size = (f: string) => statSync(join(assets, f)).size;
    const total = js.reduce((n, f) => n + size(f), 0);
    // react-dom alone is ~180 KB of the entry; the pages (~150 KB, growing) are out of it.
    expect(size(entry!)).toBeLessThan(total * 0.7);
  });
});

describe('signing in', () => {
  it('shows the refusal of a wrong password', async () => {
    await page.goto(s.url + '/');
    await screenshot(page, '00-sign-in');
    await page.getByLabel('Email').fill(t.admin.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/invalid|incorrect|wrong|password/i);
  });

  it('signs in with email and password', async () => {
    await signIn(page, s.url, t.admin.email, t.adminPassword);
    await page.getByRole('heading', { name: 'Home' }).waitFor();
  });
});

describe('the live timeline', () => {
  it('shows an event accepted after the page opened without a reload', async () => {
    await page.goto(s.url + '/timeline');
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    await untilSubscribed(s.app.rt, 'eventAdded', t.tenantId);
    const r = await rest(s.url).post(
      '/events',
      { type: 'deploy.finished', source: 'console-test', severity: 'warning', summary: 'payments v42 rolled out' },
      { headers: { 'x-service-key': t.ingestKey } },
    );
    expect(r.status).toBe(202);
    await page.getByRole('cell', { name: 'payments v42 rolled out' }).waitFor();
    await screenshot(page, '01-timeline');
  });

  it('filters by type (older events that do not match go away)', async () => {
    await rest(s.url).post(
      '/events',
      { type: 'backup.done', source: 'console-test', summary: 'nightly backup' },
      { headers: { 'x-service-key': t.ingestKey } },
    );
    await page.getByRole('cell', { name: 'nightly backup' }).waitFor();
    await page.getByLabel('Type').fill('deploy.*');
    await expect.poll(() => page.getByRole('cell', { name: 'nightly backup' }).count()).toBe(0);
    await page.getByRole('cell', { name: 'payments v42 rolled out' }).waitFor();
    await page.getByLabel('Type').fill('');
  });
});

describe('tokens', () => {
  it('mints a token shown once, which works, then revokes it so it stops working', async () => {
    await openPage(page, 'Tokens');
    await page.getByLabel('Name').fill('console-ci');
    await page.getByLabel('Expires').selectOption('30');
    await page.getByRole('button', { name: 'Mint token' }).click();
    const cleartext = (await page.getByLabel('New token value').textContent())!.trim();
    minted = cleartext;
    expect(cleartext).toMatch(/^\w+_/);
    await page.getByRole('button', { name: 'Copy token' }).waitFor();
    expect((await rest(s.url, cleartext).get('/auth/me')).status).toBe(200);
    await screenshot(page, '02-tokens-minted');

    // The list shows when each token was last used (the use above, after a reload).
    await page.reload();
    const row = page.getByRole('row').filter({ hasText: 'console-ci' });
    await expect.poll(() => row.getByRole('cell').nth(3).textContent()).not.toBe('—');
    page.once('dialog', (d) => void d.accept());
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByText('revoked').waitFor();
    expect((await rest(s.url, cleartext).get('/auth/me')).status).toBe(401);
    await screenshot(page, '03-tokens-revoked');

    // Reactivated, it works again.
    await row.getByRole('button', { name: 'Reactivate' }).click();
    await row.getByText('active', { exact: true }).waitFor();
    expect((await rest(s.url, cleartext).get('/auth/me')).status).toBe(200);
  });

  it('rotates a token: the replacement is shown once and works', async () => {
    const row = page.getByRole('row').filter({ hasText: 'console-ci' });
    await row.getByRole('button', { name: 'Rotate' }).click();
    const replacement = (await page.getByLabel('New token value').textContent())!.trim();
    expect(replacement).not.toBe(minted);
    expect((await rest(s.url, replacement).get('/auth/me')).status).toBe(200);
    // The old one keeps working during the 24-hour grace.
    expect((await rest(s.url, minted).get('/auth/me')).status).toBe(200);
  });
});

describe('the live connection', () => {
  it("accepts the session cookie on the WebSocket from the console's own origin, and refuses it from another site's page", async () => {
    const cookie = (await page.context().cookies()).find((c) => c.name === SESSION_COOKIE)!.value;
    expect(await cookieSocketViewer(cookie, s.url)).toEqual({ data: { viewer: { user: { email: t.admin.email } } } });
    await expect(cookieSocketViewer(cookie, 'http://evil.example')).rejects.toMatchObject({ code: 4403 });
  });
});

describe('signing out', () => {
  it('revokes the session on the server, not only in the browser', async () => {
    const cookie = (await page.context().cookies()).find((c) => c.name === SESSION_COOKIE);
    expect(cookie).toBeDefined();
    expect((await rest(s.url, cookie!.value).get('/auth/me')).status).toBe(200);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    expect((await rest(s.url, cookie!.value).get('/auth/me')).status).toBe(401);
  });

  it('returns to the sign-in form when the session ends elsewhere', async () => {
    await signIn(page, s.url, t.admin.email, t.adminPassword);
    const cookie = (await page.context().cookies()).find((c) => c.name === SESSION_COOKIE)!;
    // Signed out from another tab (the same session), then the console asks for data.
    const out = await call(s.url, 'POST', '/graphql', {
      headers: { cookie: `${SESSION_COOKIE}=${cookie.value}` },
      body: { query: 'mutation { logout }' },
    });
    expect(out.status).toBe(200);
    // Whichever comes first: the console notices by itself (a request of the page on screen is refused), or
    // the next page's is. Either way it is back at the sign-in form, and the menu link may be gone already.
    const signInForm = page.getByRole('button', { name: 'Sign in', exact: true });
    const tokens = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tokens', exact: true });
    await Promise.race([signInForm.waitFor(), tokens.click().catch(() => undefined)]);
    await signInForm.waitFor();
  });

  it('had no uncaught errors in the pages', () => {
    expect(b.pageErrors.map(String)).toEqual([]);
  });
});
