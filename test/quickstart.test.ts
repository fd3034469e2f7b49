/**
 * The README's quickstart runs as pasted (issue 16): its fenced shell blocks, taken from README.md as
 * they are (test/docs-registry.ts), run one after the other in ONE bash process (as a person pastes them into one shell) against
 * a real server process started the way `npm start` starts it: embedded database under a temporary
 * DATA_DIR, HTTP on a free port. Nothing in the blocks is substituted: the base URL comes in through
 * `BASE`, which the README itself defaults (`BASE=${BASE:-http://127.0.0.1:8080}`), and the CLI finds
 * the server through DATA_DIR, the setting the server was started with. The shell runs with
 * `set -euo pipefail`, so a failing command, a failing stage of a pipe or a variable nobody set fails
 * the block. At the end the tenant has the alert the quickstart's rule opened. The same process also
 * proves the first start's promise: its banner names the console, and the demo login printed there
 * signs in to it in a real browser (Debian's chromium).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { testRedisPrefix } from './helpers/env.js';
import { childEnv, runShell } from './helpers/cli.js';
import { docBlocks } from './helpers/docs.js';
import { rest } from './helpers/http.js';
import { startEmbeddedService, stopEmbeddedService } from './helpers/processes.js';
import { launchConsoleBrowser, screenshot, signIn } from './helpers/browser.js';

let svc: Awaited<ReturnType<typeof startEmbeddedService>>;
let dataDir: string;
const redisPrefix = `${testRedisPrefix(inject('testRunId'))}qs${process.pid}`;

beforeAll(async () => {
  svc = await startEmbeddedService('ops-quickstart', redisPrefix);
  dataDir = svc.dataDir;
}, 180_000);
afterAll(() => stopEmbeddedService(svc, redisPrefix));

describe('the README quickstart', () => {
  it(
    'every block exits 0 in one fresh bash shell, and the tenant ends with the alert its rule opened',
    { timeout: 180_000 },
    async () => {
      const blocks = docBlocks('quickstart');
      expect(blocks.length).toBeGreaterThanOrEqual(3);
      expect(blocks[0]).toMatch(/^BASE=\$\{BASE:-http:\/\/127\.0\.0\.1:8080\}$/m);

      // One shell for all blocks; after each, a marker with its number. The last line hands the test the
      // token the quickstart minted, to look at the final state.
      const script = [
        'set -euo pipefail',
        ...blocks.flatMap((b, i) => [b, `echo "__quickstart_block_ok ${i + 1}"`]),
        'echo "__quickstart_token $TOKEN"',
      ].join('\n');
      const env = childEnv({
        BASE: svc.url,
        DATA_DIR: dataDir,
        DATABASE_URL: undefined,
        REDIS_URL: undefined,
        LOG_LEVEL: undefined,
      });
      const result = await runShell(script, env);
      const passed = [...result.stdout.matchAll(/^__quickstart_block_ok (\d+)$/gm)].map((m) => Number(m[1]));
      const failedBlock = passed.length + 1;
      expect(
        { code: result.code, passed },
        `block ${failedBlock} failed:\n${blocks[failedBlock - 1] ?? ''}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`,
      ).toEqual({ code: 0, passed: blocks.map((_, i) => i + 1) });

      // The final state, seen over the API with the quickstart's own token (it was never revoked).
      const token = /^__quickstart_token (\S+)$/m.exec(result.stdout)?.[1];
      expect(token).toMatch(/^spat_/);
      const api = rest(svc.url, token);
      const alerts = await api.get('/alerts');
      expect(alerts.status).toBe(200);
      expect(alerts.body.items).toEqual([
        expect.objectContaining({ severity: 'critical', summary: 'deploy.failed on gha', status: 'acknowledged' }),
      ]);
      const rules = (await api.get('/alert-rules')).body.items.map(
        (r: { kind: string; name: string }) => `${r.kind}:${r.name}`,
      );
      expect(rules).toEqual(['match:Deploy failures', 'absence:Heartbeat lost']);
      const events = (await api.get('/events?since_hours=1')).body.map(
        (e: { type: string; received_via: string }) => `${e.type}:${e.received_via}`,
      );
      expect(events).toEqual(expect.arrayContaining(['deploy.failed:ingest', 'deploy.finished:webhook']));
      expect((await api.get('/sot/devices')).body.items.map((d: { name: string }) => d.name)).toEqual(['edge-1']);
    },
  );

  it(
    "the first start's banner names the console, and its demo login signs in there in a browser",
    { timeout: 120_000 },
    async () => {
      const banner = svc.stdout();
      const consoleUrl = /Console: (http:\/\/\S+)/.exec(banner)?.[1];
      const password = /password:\s+(\S+)/.exec(banner)?.[1];
      expect(consoleUrl).toBe(`${svc.url}/`);
      expect(banner).toContain(`API docs: ${svc.url}/docs`);
      expect(banner).toContain(`GraphQL: ${svc.url}/graphql`);
      expect(password).toBeTruthy();
      const b = await launchConsoleBrowser();
      try {
        const page = await b.newPage();
        await signIn(page, consoleUrl!.replace(/\/$/, ''), 'admin@demo.local', password!);
        await page.getByText('admin@demo.local').first().waitFor();
        await page.getByRole('link', { name: 'Alerts' }).click();
        await page.getByRole('heading', { name: 'Alerts' }).waitFor();
        await screenshot(page, '00-first-start-signed-in');
        expect(b.pageErrors).toEqual([]);
      } finally {
        await b.close();
      }
    },
  );
});
