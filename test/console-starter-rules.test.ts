/**
 * The starter rules on a fresh tenant's first sign-in (issue 24, point 14), in a real browser against the
 * real server: the admin is offered them above the page; one click adds them all, and a critical GPU
 * event then opens an alert; "Not now" dismisses the offer for the whole tenant (another admin is not
 * asked again); a tenant that has rules, and a member, are never asked; the server refuses a member's
 * add. Screenshots: test-results/console/starter-rules-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildTenant, buildToken, buildUser, type BuiltTenant } from './factories.js';
import { eventually, gql, rest } from './helpers/http.js';
import { launchConsoleBrowser, openPage, screenshot, signIn, type ConsoleBrowser } from './helpers/browser.js';

let s: TestServer;
let b: ConsoleBrowser;

const STARTER = [
  'Critical GPU XID',
  'GPU overheating',
  'GPU stopped reporting',
  'Integration failing',
  'Monthly budget reached',
];
const offerOf = async (token: string) => {
  const r = await gql(s.url, token, '{ starterRules { offered decidedAt rules { key name enabled ruleId } } }');
  expect(r.errors).toBeUndefined();
  return r.data.starterRules;
};
const rulesOf = async (token: string) =>
  (await gql(s.url, token, '{ alertRules { name suggestionKey enabled } }')).data.alertRules as Array<{
    name: string;
    suggestionKey: string | null;
    enabled: boolean;
  }>;

beforeAll(async () => {
  [s, b] = await Promise.all([startTestServer({ env: { INGEST_RATE_PER_SECOND: '1000' } }), launchConsoleBrowser()]);
}, 180_000);

afterAll(async () => {
  await b?.close();
  await s?.stop();
});

describe('a fresh tenant', () => {
  let t: BuiltTenant;

  it('offers the starter rules on first sign-in and adds them all in one click', async () => {
    t = await buildTenant(s.app.rt);
    const untouched = await buildTenant(s.app.rt);
    expect(await offerOf(t.adminToken)).toMatchObject({ offered: true, decidedAt: null });
    const page = await b.newPage();
    await signIn(page, s.url, t.admin.email, t.adminPassword);
    const offer = page.getByRole('region', { name: 'Starter rules' });
    for (const name of STARTER) await offer.getByText(name, { exact: true }).waitFor();
    await offer.getByText(/no alert rules yet/).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor(); // the console opens on Home
    await screenshot(page, 'starter-rules-offer');
    await offer.getByRole('button', { name: 'Add starter rules' }).click();
    const done = page.getByRole('status').filter({ hasText: 'Added 5 starter rules' });
    await done.waitFor();
    await offer.waitFor({ state: 'detached' });
    const rules = await rulesOf(t.adminToken);
    expect(rules.map((r) => r.name).sort()).toEqual([...STARTER].sort());
    expect(rules.every((r) => r.enabled && r.suggestionKey)).toBe(true);
    const after = await offerOf(t.adminToken);
    expect(after.offered).toBe(false);
    expect(after.decidedAt).not.toBeNull();
    expect(after.rules.every((r: { enabled: boolean; ruleId: string | null }) => r.enabled && r.ruleId)).toBe(true);
    // Adding again (another admin's stale screen) makes no duplicates and keeps the first answer's time.
    const again = await gql(s.url, t.adminToken, 'mutation { addStarterRules { offered decidedAt } }');
    expect(again.data.addStarterRules).toEqual({ offered: false, decidedAt: after.decidedAt });
    expect(await rulesOf(t.adminToken)).toHaveLength(STARTER.length);
    // The link goes to the rules, which lists them (its cached list was refreshed).
    await done.getByRole('link', { name: 'See them under Alert rules' }).click();
    await page
      .getByRole('table', { name: 'Alert rules' })
      .getByRole('cell', { name: 'Critical GPU XID', exact: true })
      .waitFor();
    // Not offered again, after a reload either.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Alert rules' }).waitFor();
    expect(await page.getByRole('region', { name: 'Starter rules' }).count()).toBe(0);
    // Another tenant is still offered them.
    expect((await offerOf(untouched.adminToken)).offered).toBe(true);
    expect(await rulesOf(untouched.adminToken)).toEqual([]);
    await page.context().close();
  });

  it('so a critical GPU event now opens an alert', async () => {
    const r = await rest(s.url).post(
      '/events',
      {
        type: 'gpu.xid',
        source: 'gpu-node-1',
        severity: 'critical',
        summary: 'XID 79 on GPU 0',
        labels: { uuid: 'GPU-1234' },
      },
      { headers: { 'x-service-key': t.ingestKey } },
    );
    expect(r.status).toBe(202);
    const alert = await eventually(
      async () =>
        (await gql(s.url, t.adminToken, '{ alerts(first: 5) { edges { node { summary severity rule { name } } } } }'))
          .data.alerts.edges[0]?.node,
      30_000,
    );
    expect(alert).toEqual({ summary: 'XID 79 on GPU 0', severity: 'CRITICAL', rule: { name: 'Critical GPU XID' } });
  });
});

describe('dismissed', () => {
  it('"Not now" closes the offer for every admin of the tenant and adds nothing', async () => {
    const t = await buildTenant(s.app.rt);
    const page = await b.newPage();
    await signIn(page, s.url, t.admin.email, t.adminPassword);
    const offer = page.getByRole('region', { name: 'Starter rules' });
    await offer.getByRole('button', { name: 'Not now' }).click();
    await offer.waitFor({ state: 'detached' });
    expect(await rulesOf(t.adminToken)).toEqual([]);
    expect(await offerOf(t.adminToken)).toMatchObject({ offered: false, decidedAt: expect.any(String) });
    await page.context().close();
    // A second admin signing in for the first time is not asked again.
    const second = await buildUser(s.app.rt, t.tenantId, { role: 'admin' });
    const p2 = await b.newPage();
    await signIn(p2, s.url, second.email, second.password!);
    await p2.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    await openPage(p2, 'Alerts');
    expect(await p2.getByRole('region', { name: 'Starter rules' }).count()).toBe(0);
    // They stay one click away on the Rules page.
    await openPage(p2, 'Alert rules');
    await p2
      .getByRole('table', { name: 'Suggested rules' })
      .getByRole('button', { name: 'Enable Critical GPU XID' })
      .waitFor();
    await p2.context().close();
  });
});

describe('never offered', () => {
  it('to a tenant that already has rules', async () => {
    const t = await buildTenant(s.app.rt);
    expect(
      (
        await gql(
          s.url,
          t.adminToken,
          'mutation { createAlertRule(input: { name: "Mine", typeGlob: "app.*" }) { id } }',
        )
      ).errors,
    ).toBeUndefined();
    expect(await offerOf(t.adminToken)).toMatchObject({ offered: false, decidedAt: null });
    const page = await b.newPage();
    await signIn(page, s.url, t.admin.email, t.adminPassword);
    await openPage(page, 'Alerts');
    expect(await page.getByRole('region', { name: 'Starter rules' }).count()).toBe(0);
    await page.context().close();
  });

  it('to a member, whom the server refuses', async () => {
    const t = await buildTenant(s.app.rt);
    const member = await buildUser(s.app.rt, t.tenantId);
    const token = await buildToken(s.app.rt, member);
    // The offer stands (no admin answered it), but a member cannot act on it.
    expect((await offerOf(token)).offered).toBe(true);
    for (const op of ['addStarterRules', 'dismissStarterRules']) {
      const r = await gql(s.url, token, `mutation { ${op} { offered } }`);
      expect(r.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    }
    expect(await rulesOf(t.adminToken)).toEqual([]);
    const page = await b.newPage();
    await signIn(page, s.url, member.email, member.password!);
    await openPage(page, 'Alerts');
    expect(await page.getByRole('region', { name: 'Starter rules' }).count()).toBe(0);
    await page.context().close();
    // Unauthenticated: refused too.
    expect((await gql(s.url, undefined, '{ starterRules { offered } }')).errors?.[0].extensions?.code).toBe(
      'UNAUTHENTICATED',
    );
    expect(b.pageErrors.map(String)).toEqual([]);
  });
});
