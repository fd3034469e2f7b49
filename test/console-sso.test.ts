/**
 * The console's "Sign in with <provider>" in Debian's chromium, through a real OpenID Provider
 * (oidc-provider on 127.0.0.1, test/helpers/oidc-provider.ts, answering its login and consent prompts
 * through its interaction API): the browser leaves for the provider, comes back signed in; a person the
 * group mapping does not admit comes back to the sign-in page with the reason.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { freePort } from './helpers/processes.js';
import { launchConsoleBrowser, type ConsoleBrowser } from './helpers/browser.js';
import { buildTenant } from './factories.js';
import { startOidcProvider, type TestOidcProvider } from './helpers/oidc-provider.js';

let server: TestServer;
let idp: TestOidcProvider;
let b: ConsoleBrowser;
let base: string;

beforeAll(async () => {
  const [serverPort, idpPort] = [await freePort(), await freePort()];
  const clientSecret = crypto.randomBytes(16).toString('hex');
  const tenantName = `console-sso-${crypto.randomBytes(3).toString('hex')}`;
  base = `http://127.0.0.1:${serverPort}`;
  server = await startTestServer({
    env: {
      PORT: String(serverPort),
      OIDC_DISCOVERY_URL: `http://127.0.0.1:${idpPort}`,
      OIDC_CLIENT_ID: 'ops-service',
      OIDC_CLIENT_SECRET: clientSecret,
      OIDC_TENANT: tenantName,
      OIDC_DISPLAY_NAME: 'Company Login',
      OIDC_ADMIN_GROUPS: 'ops-admins',
      OIDC_MEMBER_GROUPS: 'ops-users',
    },
  });
  idp = await startOidcProvider({ port: idpPort, redirectUri: `${base}/api/v1/auth/sso/callback`, clientSecret });
  await buildTenant(server.app.rt, { name: tenantName });
  idp.accounts.set('erin', { email: 'erin@console-sso.test', name: 'Erin', groups: ['ops-admins'] });
  idp.accounts.set('frank', { email: 'frank@console-sso.test', groups: ['contractors'] });
  b = await launchConsoleBrowser();
});

afterAll(async () => {
  await b?.close();
  await idp?.close();
  await server?.stop();
});

describe('console sign-in with a provider', () => {
  it('leaves for the provider and comes back signed in', async () => {
    const page = await b.newPage();
    idp.signInAs('erin');
    await page.goto(base + '/');
    await page.getByRole('button', { name: 'Sign in with Company Login' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(new URL(page.url()).origin).toBe(base);
    const user = await server.app.rt.prisma.user.findUniqueOrThrow({ where: { email: 'erin@console-sso.test' } });
    expect(user.role).toBe('admin');
    expect(b.pageErrors).toEqual([]);
  });

  it('shows why on the sign-in page when the provider’s groups admit nobody', async () => {
    const page = await b.newPage();
    idp.signInAs('frank');
    await page.goto(base + '/');
    await page.getByRole('button', { name: 'Sign in with Company Login' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('none of the groups');
    await expect(page.getByRole('button', { name: 'Sign in', exact: true }).isVisible()).resolves.toBe(true);
  });
});
