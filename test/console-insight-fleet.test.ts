/**
 * The console's Integrations, Clusters, GPU overview and Billing pages in a real browser (chromium via
 * playwright-core) against the real server: an integration created from the provider registry with its
 * push token, then its health after a push; a cluster invite; the GPU overview with telemetry pushed
 * through the API, diagnostics and a load test; billing figures equal to the API's; a member's view at
 * phone width (admin actions disabled with the reason) and the server's 403 after a role change.
 * Reports, dashboards and copilot: console-insight-reports.test.ts. Screenshots: test-results/console/insight-*.png.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { buildUser } from './factories.js';
import { call, eventually, gql } from './helpers/http.js';
import { startOpenAiStreamServer, type StreamServer } from './helpers/openai-stream-server.js';
import { screenshot, signIn } from './helpers/browser.js';
import { SOURCE, SUMMARIES, ingestBuilds } from './helpers/insight-builds.js';
import { useConsoleSuite, s, t, b, admin as page } from './helpers/console-suite.js';

let llm: StreamServer | undefined;

useConsoleSuite({
  env: { INGEST_RATE_PER_SECOND: '1000', WEBHOOK_URL_ALLOWLIST: '127.0.0.1' },
  setUp: async () => {
    await ingestBuilds(s.url, t.ingestKey);
    // The saved report a member runs on a narrow screen.
    const saved = await gql(
      s.url,
      t.adminToken,
      'mutation($input: SavedReportInput!) { createSavedReport(input: $input) { id } }',
      {
        input: {
          name: 'CI builds by severity',
          query: {
            entity: 'events',
            filters: [{ field: 'source', op: 'eq', value: SOURCE }],
            group_by: ['severity'],
            aggregate: [{ fn: 'count' }],
          },
        },
      },
    );
    expect(saved.errors).toBeUndefined();
  },
});

afterAll(async () => {
  await llm?.close();
});

async function openPage(p: Page, link: string, heading = link) {
  if (await p.getByRole('button', { name: 'Menu' }).isVisible()) await p.getByRole('button', { name: 'Menu' }).click();
  await p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
  await p.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

describe('integrations', () => {
  it('creates an integration from the provider registry, shows its push token once, and its health after a push', async () => {
    await openPage(page, 'Integrations');
    await page.getByLabel('Provider').selectOption('webhook');
    await page.getByLabel('Integration name').fill('ci-hook');
    await page.getByLabel('Expect an event every (seconds)').fill('3600');
    // A field of the provider's config schema.
    await page.getByLabel('event type').fill('ci.hook');
    // A dry run checks the config against the provider's schema and saves nothing.
    await page.getByRole('button', { name: 'Test config (dry run)' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Dry run: config valid' })
      .filter({ hasText: 'Nothing was saved.' })
      .waitFor();
    expect((await gql(s.url, t.adminToken, '{ integrations { id } }')).data.integrations).toEqual([]);
    await page.getByRole('button', { name: 'Create integration' }).click();
    const token = (await page.getByLabel('Push token value').textContent())!.trim();
    expect(token.length).toBeGreaterThan(20);
    const row = page.getByRole('row').filter({ hasText: 'ci-hook' });
    await row.waitFor();
    const list = await gql(s.url, t.adminToken, '{ integrations { id name provider config } }');
    const integ = list.data.integrations[0];
    expect(integ).toMatchObject({
      name: 'ci-hook',
      provider: 'webhook',
      config: expect.objectContaining({ event_type: 'ci.hook' }),
    });

    const pushed = await call(s.url + '/api/v1', 'POST', `/integrations/${integ.id}/push`, {
      body: { title: 'hello' },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(pushed.status).toBeLessThan(300);
    await row.getByRole('button', { name: 'Check health' }).click();
    await row.getByText('healthy', { exact: true }).first().waitFor();
    await row.getByText(/last event \d+ s ago/).waitFor();
    await row.getByText('History').click();
    await row.getByRole('list', { name: 'Health history of ci-hook' }).getByText('healthy').first().waitFor();
    await screenshot(page, 'insight-integrations');
  });

  it('rotates the push token: the new one is shown and works', async () => {
    const row = page.getByRole('row').filter({ hasText: 'ci-hook' });
    page.once('dialog', (d) => void d.accept());
    await row.getByRole('button', { name: 'Rotate push token' }).click();
    await page.getByLabel('Push token value').waitFor();
    const token = (await page.getByLabel('Push token value').textContent())!.trim();
    const id = (await gql(s.url, t.adminToken, '{ integrations { id } }')).data.integrations[0].id;
    const pushed = await call(s.url + '/api/v1', 'POST', `/integrations/${id}/push`, {
      body: { title: 'again' },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(pushed.status).toBeLessThan(300);
    await page.getByRole('button', { name: 'Done' }).click();
  });

  it('mints a cluster invite with its join command', async () => {
    await openPage(page, 'Clusters');
    await page.getByRole('button', { name: 'Create invite' }).click();
    const command = (await page.getByLabel('Join command', { exact: true }).textContent())!;
    const inviteToken = (await page.getByLabel('Invite token').textContent())!.trim();
    expect(command).toContain(inviteToken);
    await screenshot(page, 'insight-clusters');
  });
});

describe('GPU overview', () => {
  it('shows GPUs, their health, a time series and hardware events from telemetry pushed through the API', async () => {
    const now = s.app.rt.clock.now().getTime(); // the server's clock (TEST_TIME_OF_DAY)
    const gpu = (uuid: string, index: number, minute: number, over: Record<string, unknown> = {}) => ({
      uuid,
      index,
      model: 'NVIDIA A100-SXM4-80GB',
      at: new Date(now - (30 - minute) * 60_000).toISOString(),
      utilization: 40 + minute,
      memory_used_mib: 20000,
      memory_total_mib: 81920,
      temperature_c: 55 + minute / 3,
      power_w: 250,
      power_limit_w: 400,
      ecc_dbe: 0,
      xid: 0,
      ...over,
    });
    const samples = [];
    for (let m = 0; m < 30; m += 2)
      samples.push(gpu('GPU-aaaa-0001', 0, m), gpu('GPU-aaaa-0002', 1, m, m === 28 ? { xid: 79 } : {}));
    const r = await call(s.url + '/api/v1', 'POST', '/ai-factory/gpu/samples', {
      body: { node: 'gpu-node-7', samples },
      headers: { 'x-service-key': t.ingestKey },
    });
    expect(r.status).toBe(202);
    expect(r.body.events).toBeGreaterThan(0);

    await openPage(page, 'GPU overview');
    const gpus = page.getByRole('table', { name: 'GPUs' });
    await gpus.getByRole('cell', { name: 'gpu-node-7 #0' }).waitFor();
    await gpus.getByRole('cell', { name: 'gpu-node-7 #1' }).waitFor();
    await page.getByRole('table', { name: 'GPU events' }).getByText('gpu.xid').waitFor();
    const chart = page.getByRole('img', { name: /utilization.*per GPU/ });
    await chart.waitFor();
    expect(await chart.locator('path').count()).toBeGreaterThanOrEqual(2);
    await page.getByLabel('Metric').selectOption('TEMPERATURE_C');
    await page.getByRole('img', { name: /temperature.*per GPU/ }).waitFor();

    // Diagnostics over the node run as a job; the page follows it until its checks are in.
    await page.getByLabel('Diagnose').selectOption({ label: 'every GPU of gpu-node-7' });
    await page.getByRole('button', { name: 'Start diagnostics' }).click();
    const diag = page.getByRole('table', { name: 'Diagnostics' }).getByRole('row').filter({ hasText: 'gpu-node-7' });
    await diag.getByText('completed').waitFor({ timeout: 30_000 });
    await diag
      .getByRole('listitem')
      .filter({ hasText: 'gpu-node-7 #1' })
      .filter({ hasText: 'xid_last_hour: fail' })
      .waitFor();
    await screenshot(page, 'insight-gpu');
  }, 180_000);
});

describe('load tests', () => {
  it('runs an AIPerf load test against an OpenAI-compatible server and shows its percentiles', async () => {
    // A real streaming server on 127.0.0.1 (first token after 100 ms, then one every 10 ms).
    llm = await startOpenAiStreamServer({ tokens: 10 });
    const form = page.getByRole('form', { name: 'Start a load test' });
    await form.getByLabel('Endpoint URL').fill(llm.url);
    await form.getByLabel('Model', { exact: true }).fill('ci-model');
    await form.getByLabel('Clients', { exact: true }).fill('2');
    await form.getByLabel('Requests', { exact: true }).fill('6');
    await form.getByRole('button', { name: 'Start load test' }).click();
    const row = page.getByRole('table', { name: 'Load-test runs' }).getByRole('row').filter({ hasText: 'ci-model' });
    // The page polls while the run is queued or running.
    await row.getByText('succeeded').waitFor({ timeout: 60_000 });
    const run = (
      await gql(s.url, t.adminToken, '{ aiperfRuns { status results { requests errors ttftMs { p50 p90 p99 } } } }')
    ).data.aiperfRuns[0];
    expect(run.status).toBe('SUCCEEDED');
    expect(run.results.requests).toBe(6);
    expect(run.results.ttftMs.p50).toBeGreaterThanOrEqual(90);
    const ttft = run.results.ttftMs;
    await row
      .getByText(`p50 ${ttft.p50.toFixed(1)} · p90 ${ttft.p90.toFixed(1)} · p99 ${ttft.p99.toFixed(1)} ms`)
      .first()
      .waitFor();
    await row.getByText(`0/6 errors`).waitFor();
    await screenshot(page, 'insight-gpu-load-test');
  }, 180_000);
});

describe('billing', () => {
  it('shows the month to date, breakdown, daily chart and SKUs with the amounts the API computes; an admin overrides a price', async () => {
    await openPage(page, 'Billing');
    await page.getByRole('button', { name: 'Recompute usage' }).click();
    await page.getByRole('status').filter({ hasText: 'hourly windows queued' }).waitFor();
    // Metering runs as BullMQ jobs: wait until no window is pending, then compare with the API's figures.
    const currentBilling = async () => {
      const r = await gql(
        s.url,
        t.adminToken,
        '{ billing { current { total { amount currency } metering { pendingWindows } skus { skuId quantity amount { amount } } } } }',
      );
      return r.data.billing.current;
    };
    const eventsOf = (c: { skus: Array<{ skuId: string; quantity: string; amount: { amount: string } }> }) =>
      c.skus.find((x) => x.skuId === 'ops.events.ingested');
    // Every event this file sent is metered (windows other tests' jobs queue may still be on their way).
    const current = await eventually(async () => {
      const c = await currentBilling();
      const metered = Number(eventsOf(c)?.quantity ?? 0) >= SUMMARIES.length + 1;
      return c.metering.pendingWindows === 0 && Number(c.total.amount) > 0 && metered ? c : undefined;
    }, 60_000);
    const events = eventsOf(current)!;
    expect(Number(events.quantity)).toBeGreaterThanOrEqual(SUMMARIES.length + 1);
    // The page shows what the API answers at the time it refreshes (a window metered meanwhile moves both).
    await expect
      .poll(async () => {
        await page.getByRole('status').getByRole('button', { name: 'Refresh' }).click();
        const latest = await currentBilling();
        return (await page.getByLabel('Month to date amount').textContent()) ===
          `${latest.total.amount} ${latest.total.currency}`
          ? 'shown'
          : 'differs';
      })
      .toBe('shown');
    const bySku = page.getByRole('table', { name: 'Current month by SKU' });
    await bySku
      .getByRole('row')
      .filter({ hasText: 'Events ingested' })
      .getByText(`${events.amount.amount} USD`)
      .waitFor();
    // Breakdown by source: the report's source has its own row.
    await page.getByRole('table', { name: 'Breakdown' }).getByRole('cell', { name: SOURCE, exact: true }).waitFor();
    await page.getByRole('img', { name: 'Spend per day' }).waitFor();
    await page.getByRole('img', { name: 'Spend by source' }).waitFor();
    // Local GPU versus cloud: the telemetry is there; the prices it needs are named as missing.
    await page
      .getByRole('table', { name: 'Local GPU cost by model' })
      .getByRole('cell', { name: 'NVIDIA A100-SXM4-80GB' })
      .waitFor();
    await page.getByRole('list', { name: 'Missing inputs' }).getByText('price_per_kwh').waitFor();
    await screenshot(page, 'insight-billing');

    await page.getByRole('button', { name: 'Override Events ingested' }).click();
    await page.getByLabel('Unit price').fill('0.001');
    await page.getByRole('button', { name: 'Set price' }).click();
    await page
      .getByRole('table', { name: 'SKUs' })
      .getByRole('row')
      .filter({ hasText: 'Events ingested' })
      .getByText('0.001 USD (override)')
      .waitFor();
    const sku = await gql(s.url, t.adminToken, '{ billing { skus { id unitPrice { amount } overridden } } }');
    expect(sku.data.billing.skus.find((x: { id: string }) => x.id === 'ops.events.ingested')).toEqual({
      id: 'ops.events.ingested',
      unitPrice: { amount: '0.001' },
      overridden: true,
    });

    // A custom meter over the tenant's own cost events.
    const meterForm = page.getByRole('form', { name: 'New meter' });
    await meterForm.getByLabel('Meter slug').fill('cloud_cost');
    await meterForm.getByLabel('Event type').fill('cloud.cost');
    await meterForm.getByLabel('Aggregation').selectOption('SUM');
    await meterForm.getByLabel('Value path').fill('$.cost');
    await meterForm.getByRole('button', { name: 'Create meter' }).click();
    await page.getByRole('table', { name: 'Meters' }).getByRole('cell', { name: 'sum of $.cost' }).waitFor();
    const meters = await gql(s.url, t.adminToken, '{ billing { meters { slug typeGlob aggregation valuePath } } }');
    expect(meters.data.billing.meters).toContainEqual({
      slug: 'cloud_cost',
      typeGlob: 'cloud.cost',
      aggregation: 'SUM',
      valuePath: '$.cost',
    });
  }, 120_000);
});

describe('a member on a narrow screen', () => {
  it('sees admin-only actions disabled with the reason, and still checks health and runs reports', async () => {
    const member = await buildUser(s.app.rt, t.tenantId);
    const narrow = await b.newPage({ narrow: true });
    await signIn(narrow, s.url, member.email, member.password!);
    await openPage(narrow, 'Integrations');
    const form = narrow.getByRole('form', { name: 'Connect a system' });
    await expect.poll(() => form.getByRole('button', { name: 'Create integration' }).isDisabled()).toBe(true);
    await form.getByText('Only admins can do this.').waitFor();
    const row = narrow.getByRole('row').filter({ hasText: 'ci-hook' });
    expect(await row.getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);
    await row.getByRole('button', { name: 'Check health' }).click();
    await row.getByText('healthy', { exact: true }).first().waitFor();
    await screenshot(narrow, 'insight-integrations-member-narrow');

    await openPage(narrow, 'Reports');
    await narrow.getByText('Only admins can see and change report schedules.').waitFor();
    const savedRow = narrow.getByRole('row').filter({ hasText: 'CI builds by severity' });
    expect(await savedRow.getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);
    await savedRow.getByRole('button', { name: 'Run' }).click();
    await narrow.getByRole('table', { name: 'Report result' }).getByRole('cell', { name: 'warning' }).waitFor();
    await screenshot(narrow, 'insight-reports-member-narrow');

    await openPage(narrow, 'GPU overview');
    await narrow.getByRole('table', { name: 'GPUs' }).getByRole('cell', { name: 'gpu-node-7 #0' }).waitFor();
    expect(await narrow.getByRole('button', { name: 'Start diagnostics' }).isDisabled()).toBe(true);
    await screenshot(narrow, 'insight-gpu-member-narrow');

    await openPage(narrow, 'Billing');
    await narrow.getByLabel('Month to date amount').waitFor();
    expect(await narrow.getByRole('button', { name: 'Recompute usage' }).isDisabled()).toBe(true);
    expect(await narrow.getByRole('button', { name: 'Set price' }).isDisabled()).toBe(true);
    await screenshot(narrow, 'insight-billing-member-narrow');
    // Nothing spills sideways at phone width (tables scroll inside their own box).
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
  });

  it("shows the server's 403 when the role changed after the page was drawn", async () => {
    // An admin opens Clusters, then is made a member elsewhere: the button is still enabled on this
    // screen, the server refuses, and the console shows the refusal instead of swallowing it.
    const admin2 = await buildUser(s.app.rt, t.tenantId, { role: 'admin' });
    const p = await b.newPage();
    await signIn(p, s.url, admin2.email, admin2.password!);
    await openPage(p, 'Clusters');
    await s.app.rt.prisma.user.update({ where: { id: admin2.id }, data: { role: 'member' } });
    await p.getByRole('button', { name: 'Create invite' }).click();
    await p.getByRole('alert').filter({ hasText: '403 Forbidden' }).waitFor();
    expect(await p.getByLabel('Invite token').count()).toBe(0);
  });

  it('had no uncaught errors in the pages', () => {
    expect(b.pageErrors.map(String)).toEqual([]);
  });
});
