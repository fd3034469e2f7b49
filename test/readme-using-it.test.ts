/**
 * The README's "Using it" runs as pasted (issue 24, point 9): after the quickstart's blocks, every fenced
 * `sh` block of "## Using it" up to "### Command line" runs in the same bash process (as a person pastes them
 * into the shell the quickstart left), against a service process started the way `npm start` starts it
 * (embedded database under a temporary DATA_DIR, HTTP on a free port).
 *
 * The README says hosts like `am.example.net` stand for your own systems; here real receivers on 127.0.0.1
 * stand for them (an Alertmanager, a Prometheus, a dcgm-exporter and a webhook receiver answering as those
 * systems do), each example URL replaced by its receiver's, and the service allows them with
 * WEBHOOK_URL_ALLOWLIST=127.0.0.1, as the README tells an operator to. Nothing else is changed.
 *
 * Beyond every block exiting 0 under `set -euo pipefail`, the outcome is checked over the API: the assistant's
 * triage proposed actions, one was approved (and ran) and one rejected, before the alert was resolved (triage
 * first: a resolved alert has nothing to propose, which made approve and reject answer 404 for `null`); the
 * Prometheus integration was pulled with the config it inherited; and no command answered an error body.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { testRedisPrefix, REDIS_URL } from './helpers/env.js';
import { childEnv, REPO_ROOT, runShell, SERVICE_MAIN } from './helpers/cli.js';
import { quickstartBlocks } from './helpers/readme.js';
import { eventually, gql, rest } from './helpers/http.js';
import { freePort, startServiceProcess, stopEmbeddedService, type StartedProcess } from './helpers/processes.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';

const redisPrefix = `${testRedisPrefix(inject('testRunId'))}ui${process.pid}`;
let svc: StartedProcess & { dataDir: string };
const receivers: Record<'alertmanager' | 'prometheus' | 'dcgm' | 'hooks', Receiver> = {} as never;

const json = (body: unknown) => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

beforeAll(async () => {
  receivers.alertmanager = await startReceiver((req) =>
    req.path.includes('/api/v2/alerts') ? json([]) : { status: 200, body: 'OK' },
  );
  receivers.prometheus = await startReceiver((req) => {
    if (req.path.includes('/api/v1/alerts')) {
      return json({
        status: 'success',
        data: {
          alerts: [
            {
              labels: { alertname: 'DiskFilling', severity: 'warning', instance: 'web-1:9100' },
              annotations: { summary: 'disk 91% full' },
              state: 'firing',
              activeAt: '2026-11-25T07:00:00Z',
              value: '91',
            },
          ],
        },
      });
    }
    if (req.path.includes('/api/v1/targets')) return json({ status: 'success', data: { activeTargets: [] } });
    return { status: 200, body: 'Prometheus Server is Healthy.' };
  });
  const dcgmText = fs.readFileSync(path.join(REPO_ROOT, 'test/fixtures/gpu/dcgm-exporter.txt'), 'utf8');
  receivers.dcgm = await startReceiver(() => ({
    status: 200,
    headers: { 'content-type': 'text/plain; version=0.0.4' },
    body: dcgmText,
  }));
  receivers.hooks = await startReceiver(() => ({ status: 200 }));

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-using-it-'));
  // The compiled service, as `npm start` runs it (scripts/start.mjs imports dist/, which the global setup built).
  const started = await startServiceProcess(process.execPath, SERVICE_MAIN, {
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    DATABASE_URL: undefined,
    REDIS_URL,
    REDIS_PREFIX: redisPrefix,
    BOOTSTRAP_DEMO: 'true',
    WEBHOOK_URL_ALLOWLIST: '127.0.0.1',
  });
  svc = { ...started, dataDir };
}, 180_000);
afterAll(async () => {
  await stopEmbeddedService(svc, redisPrefix);
  for (const r of Object.values(receivers)) await r?.close();
});

/** The fenced ```sh blocks of the README's "## Using it" section before "### Command line", in order. */
function usingItBlocks(readme: string): string[] {
  const start = readme.indexOf('\n## Using it');
  if (start < 0) throw new Error('README.md has no "## Using it" section');
  const end = readme.indexOf('\n### Command line', start);
  if (end < 0) throw new Error('README.md has no "### Command line" section after "## Using it"');
  return [...readme.slice(start, end).matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

describe('the README "Using it" blocks', () => {
  it(
    'run after the quickstart in one shell: triage, approve and reject, then resolve; integrations pulled from local receivers',
    { timeout: 300_000 },
    async () => {
      const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
      const quickstart = quickstartBlocks(readme);
      const origin = (r: Receiver) => new URL(r.url).origin;
      const hosts: Array<[string, string]> = [
        ['https://am.example.net', origin(receivers.alertmanager)],
        ['https://prom.example.net', origin(receivers.prometheus)],
        ['http://gpu-node-1:9400/metrics', `${origin(receivers.dcgm)}/metrics`],
        ['https://hooks.example.net/ops', `${origin(receivers.hooks)}/ops`],
      ];
      const blocks = usingItBlocks(readme).map((b) => hosts.reduce((text, [from, to]) => text.replaceAll(from, to), b));
      expect(blocks.length).toBeGreaterThanOrEqual(6);
      for (const [from] of hosts)
        expect(usingItBlocks(readme).join('\n'), `the README still uses ${from}`).toContain(from);

      const script = [
        'set -euo pipefail',
        ...quickstart.flatMap((b, i) => [b, `echo; echo "__block_ok quickstart ${i + 1}"`]),
        // Many commands print JSON without a newline: each marker starts a line of its own.
        ...blocks.flatMap((b, i) => [
          `echo; echo "__block_start ${i + 1}"`,
          b,
          `echo; echo "__block_ok using ${i + 1}"`,
        ]),
        'echo; echo "__final $TOKEN $ALERT"',
      ].join('\n');
      const env = childEnv({
        BASE: svc.url,
        DATA_DIR: svc.dataDir,
        DATABASE_URL: undefined,
        REDIS_URL: undefined,
        LOG_LEVEL: undefined,
      });
      const result = await runShell(script, env);
      // The exports the blocks wrote with `-o` into the clone (ignored by git): real CSV, then removed.
      const exports = Object.fromEntries(
        ['events.csv', 'focus.csv'].map((f) => [
          f,
          fs.existsSync(path.join(REPO_ROOT, f)) ? fs.readFileSync(path.join(REPO_ROOT, f), 'utf8') : null,
        ]),
      );
      for (const f of Object.keys(exports)) fs.rmSync(path.join(REPO_ROOT, f), { force: true });
      const passed = [...result.stdout.matchAll(/^__block_ok using (\d+)$/gm)].map((m) => Number(m[1]));
      const failed = passed.length + 1;
      expect(
        { code: result.code, passed },
        `"Using it" block ${failed} failed:\n${blocks[failed - 1] ?? ''}\n--- stdout\n${result.stdout.slice(-6000)}\n--- stderr\n${result.stderr.slice(-4000)}`,
      ).toEqual({ code: 0, passed: blocks.map((_, i) => i + 1) });

      // No command of the "Using it" blocks answered an error body ({"code": "...", "detail": ...}); the
      // shell keeps going after curl -s, so this is where a 404 for ACTION=null would show.
      const usingOut = result.stdout.slice(result.stdout.indexOf('__block_start 1'));
      const errors = [...usingOut.matchAll(/\{"code":"[A-Z_]+","detail":(?:"(?:[^"\\]|\\.)*"|\[[^\]]*\])/g)].map(
        (m) => m[0],
      );
      expect(errors, usingOut.slice(-6000)).toEqual([]);
      expect(usingOut).not.toMatch(/\/actions\/null\//);

      expect(exports['events.csv']?.split('\n')[0]).toMatch(/^[a-z_]+(,[a-z_]+)+$/); // a header row
      expect(exports['events.csv']).toContain('deploy.failed');
      expect(exports['focus.csv']?.split('\n')[0]).toContain('BilledCost');

      const [, token, alertId] = /^__final (\S+) (\S+)$/m.exec(result.stdout) ?? [];
      expect(token).toMatch(/^spat_/);
      const api = rest(svc.url, token);
      // The alert was triaged before it was resolved: one action approved (it ran), one rejected.
      const alert = await api.get(`/alerts/${alertId}`);
      expect(alert.body).toMatchObject({ status: 'resolved', summary: 'deploy.failed on gha' });
      const g = await gql(
        svc.url,
        token,
        'query($id: ID!) { alert(id: $id) { triages { actions { tool status reason } } } }',
        { id: alertId },
      );
      const actions = g.data.alert.triages.flatMap((t: { actions: unknown[] }) => t.actions);
      expect(actions).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ tool: 'ACKNOWLEDGE_ALERT', status: 'EXECUTED' }),
          expect.objectContaining({ tool: 'SNOOZE_ALERT', status: 'REJECTED', reason: 'not now' }),
        ]),
      );

      // The Prometheus integration inherited the provider config's url and was pulled from the local receiver.
      expect(receivers.prometheus.requests.some((r) => r.path.includes('/api/v1/alerts'))).toBe(true);
      const integrations = (await api.get('/integrations?provider=prometheus')).body.items;
      expect(integrations).toEqual([expect.objectContaining({ name: 'prom-prod', provider: 'prometheus' })]);
      expect(receivers.dcgm.requests.length).toBeGreaterThan(0);
      expect(receivers.alertmanager.requests.length).toBeGreaterThan(0);
      // The outbound webhook's alert.opened delivery reached its receiver, and so did the redelivery.
      const opened = () =>
        receivers.hooks.requests.filter((r) => r.path === '/ops' && r.body.includes('"alert.opened"'));
      await eventually(async () => opened().length >= 2, 30_000);
      expect(
        new Set(opened().map((r) => r.headers['webhook-id'])).size,
        'a redelivery keeps the webhook-id',
      ).toBeLessThan(opened().length);
    },
  );
});
