/**
 * "Using it" runs as pasted (issue 24, point 9; the pages moved to docs/ in issue 39): after the README's
 * quickstart, every shell block of docs/using.md and then of docs/integrating.md (but its typed client, which
 * test/openapi-client.test.ts runs) runs in the same bash process (as a person pastes them into the shell the
 * quickstart left), against a service process started the way `npm start` starts it (embedded database under a
 * temporary DATA_DIR, HTTP on a free port). Which blocks: test/docs-registry.ts.
 *
 * The pages say hosts like `am.example.net` stand for your own systems; here real receivers on 127.0.0.1 stand
 * for them (test/helpers/docs-env.ts), each example URL replaced by its receiver's, and the service allows them
 * with WEBHOOK_URL_ALLOWLIST=127.0.0.1, as the pages tell an operator to. Nothing else is changed.
 *
 * Beyond every block exiting 0 under `set -euo pipefail`, the outcome is checked over the API: the assistant's
 * triage proposed actions, one was approved (and ran) and one rejected, before the alert was resolved (triage
 * first: a resolved alert has nothing to propose, which made approve and reject answer 404 for `null`); the
 * Prometheus integration was pulled with the config it inherited; and no command answered an error body.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { testRedisPrefix } from './helpers/env.js';
import { REPO_ROOT } from './helpers/cli.js';
import { docBlocks } from './helpers/docs.js';
import { errorBodies, startDocsEnv, type DocsEnv } from './helpers/docs-env.js';
import { eventually, gql, rest } from './helpers/http.js';

const redisPrefix = `${testRedisPrefix(inject('testRunId'))}ui${process.pid}`;
let env: DocsEnv;

beforeAll(async () => {
  env = await startDocsEnv('ops-using-it', redisPrefix);
}, 180_000);
afterAll(async () => {
  await env?.close();
});

describe('the "Using it" pages (docs/using.md, docs/integrating.md)', () => {
  it(
    'run after the quickstart in one shell: triage, approve and reject, then resolve; integrations pulled from local receivers',
    { timeout: 300_000 },
    async () => {
      const quickstart = docBlocks('quickstart').map((code, i) => ({ name: `quickstart ${i + 1}`, code }));
      const using = [
        ...docBlocks('using').map((code, i) => ({ name: `using.md ${i + 1}`, code })),
        ...docBlocks('integrating').map((code, i) => ({ name: `integrating.md ${i + 1}`, code })),
      ];
      expect(using.length).toBeGreaterThanOrEqual(6);
      const pages = using.map((b) => b.code).join('\n');
      for (const [from] of env.hosts.slice(0, 4)) expect(pages, `the pages still use ${from}`).toContain(from);

      const result = await env.run([...quickstart, ...using], 'echo; echo "__final $TOKEN $ALERT"');
      // The exports the blocks wrote with `-o` into the clone (ignored by git): real CSV, then removed.
      const exports = Object.fromEntries(
        ['events.csv', 'focus.csv'].map((f) => [
          f,
          fs.existsSync(path.join(REPO_ROOT, f)) ? fs.readFileSync(path.join(REPO_ROOT, f), 'utf8') : null,
        ]),
      );
      for (const f of Object.keys(exports)) fs.rmSync(path.join(REPO_ROOT, f), { force: true });
      const all = [...quickstart, ...using];
      const failed = all[result.passed.length];
      expect(
        { code: result.code, passed: result.passed },
        `block "${failed?.name}" failed:\n${failed?.code ?? ''}\n--- stdout\n${result.stdout.slice(-6000)}\n--- stderr\n${result.stderr.slice(-4000)}`,
      ).toEqual({ code: 0, passed: all.map((b) => b.name) });

      // No command of the pages answered an error body ({"code": "...", "detail": ...}); the shell keeps
      // going after curl -s, so this is where a 404 for ACTION=null would show.
      const usingOut = result.stdout.slice(result.stdout.indexOf(`__block_start ${using[0]!.name}`));
      expect(errorBodies(usingOut), usingOut.slice(-6000)).toEqual([]);
      expect(usingOut).not.toMatch(/\/actions\/null\//);

      expect(exports['events.csv']?.split('\n')[0]).toMatch(/^[a-z_]+(,[a-z_]+)+$/); // a header row
      expect(exports['events.csv']).toContain('deploy.failed');
      expect(exports['focus.csv']?.split('\n')[0]).toContain('BilledCost');

      const [, token, alertId] = /^__final (\S+) (\S+)$/m.exec(result.stdout) ?? [];
      expect(token).toMatch(/^spat_/);
      const api = rest(env.svc.url, token);
      // The alert was triaged before it was resolved: one action approved (it ran), one rejected.
      const alert = await api.get(`/alerts/${alertId}`);
      expect(alert.body).toMatchObject({ status: 'resolved', summary: 'deploy.failed on gha' });
      const g = await gql(
        env.svc.url,
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
      const { receivers } = env;
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
