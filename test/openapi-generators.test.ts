/**
 * Two more generators over the served contract, each with default flags (issue 43, item 5): @hey-api/openapi-ts
 * and orval (`--client fetch`). Each generated client is type-checked strictly with a program making the same
 * seven calls as test/openapi-client.test.ts (openapi-typescript + openapi-fetch), and the program then runs
 * against the server. orval's fetch client calls `fetch` with paths alone (`/events`); in Node, where there is no
 * page to resolve them against, the program gives fetch the base, as docs/integrating.md shows.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { REPO_ROOT } from './helpers/cli.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';

let s: TestServer;
let t: BuiltTenant;
let receiver: Receiver;
const dir = path.join(REPO_ROOT, 'test-results', `openapi-generators-${process.pid}`);

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1' } });
  t = await buildTenant(s.app.rt);
  receiver = await startReceiver();
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'openapi.json'), await (await fetch(`${s.url}/openapi.json`)).text());
}, 120_000);
afterAll(async () => {
  await receiver?.close();
  await s?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

function exec(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const bin = (name: string) => path.join(REPO_ROOT, 'node_modules', '.bin', name);

function typeCheck(files: string[]): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    skipLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file
      ? `${path.relative(dir, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
      : '';
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

const EVENT = `{ type: 'deploy.failed', module: 'ci', source: 'gha', severity: 'critical', payload: { sha: 'abc' } }`;
const QUERY = `{ entity: 'events', group_by: ['source'], aggregate: [{ fn: 'count' }] }`;
const SAVED = `{ name: 'by source', query: { entity: 'events', group_by: ['source'], aggregate: 'count' } }`;

const HEY = `import { createClient, createConfig } from './hey/client/index.js';
import { client } from './hey/client.gen.js';
import { createOutboundWebhook, createReportSchedule, createSavedReport, ingestEvent, listEvents, runReportQuery, runSavedReport, updateReportSchedule } from './hey/index.js';

const baseUrl = process.env.BASE + '/api/v1';
client.setConfig({ baseUrl, headers: { authorization: 'Bearer ' + process.env.TOKEN } });
const ingest = createClient(createConfig({ baseUrl, headers: { 'x-service-key': process.env.INGEST_KEY! } }));
const out: Record<string, unknown> = {};

const sent = await ingestEvent({ client: ingest, body: ${EVENT} });
out.ingested = sent.response.status;
const events = await listEvents({ query: { module: 'ci' } });
out.events = events.data?.map((e) => e.type);
const query = await runReportQuery({ body: ${QUERY} });
if (query.error) throw new Error(JSON.stringify(query.error));
out.rows = query.data.rows;
const saved = await createSavedReport({ body: ${SAVED} });
if (saved.error) throw new Error(JSON.stringify(saved.error));
const run = await runSavedReport({ path: { reportId: saved.data.id }, body: { parameters: { since_hours: 2 } } });
out.savedRun = run.response.status;
const hook = await createOutboundWebhook({ body: { name: 'reports', url: process.env.RECEIVER!, triggers: [{ on: 'report.delivered' }] } });
if (hook.error) throw new Error(JSON.stringify(hook.error));
const schedule = await createReportSchedule({ body: { saved_report_id: saved.data.id, webhook_id: hook.data.id, cron: '0 8 * * 1', timezone: 'Europe/Berlin' } });
if (schedule.error) throw new Error(JSON.stringify(schedule.error));
const paused = await updateReportSchedule({ path: { scheduleId: schedule.data.id }, body: { enabled: false } });
out.schedule = { timezone: paused.data?.timezone, enabled: paused.data?.enabled };

// @ts-expect-error: entity is required
await runReportQuery({ body: { since_hours: 1 } });
console.log(JSON.stringify(out));
`;

const ORVAL = `import { createOutboundWebhook, createReportSchedule, createSavedReport, ingestEvent, listEvents, runReportQuery, runSavedReport, updateReportSchedule } from './orval/api.js';

// orval's fetch client passes paths alone ('/events'): give fetch the base.
const base = process.env.BASE + '/api/v1';
const plainFetch = globalThis.fetch;
globalThis.fetch = (input, init) => plainFetch(typeof input === 'string' && input.startsWith('/') ? base + input : input, init);
const auth = { headers: { authorization: 'Bearer ' + process.env.TOKEN } };
const out: Record<string, unknown> = {};

const sent = await ingestEvent(${EVENT}, { headers: { 'x-service-key': process.env.INGEST_KEY! } });
out.ingested = sent.status;
const events = await listEvents({ module: 'ci' }, auth);
if (events.status !== 200) throw new Error(JSON.stringify(events.data));
out.events = events.data.map((e) => e.type);
const query = await runReportQuery(${QUERY}, auth);
if (query.status !== 200) throw new Error(JSON.stringify(query.data));
out.rows = query.data.rows;
const saved = await createSavedReport(${SAVED}, auth);
if (saved.status !== 201) throw new Error(JSON.stringify(saved.data));
const run = await runSavedReport(saved.data.id, { parameters: { since_hours: 2 } }, auth);
out.savedRun = run.status;
const hook = await createOutboundWebhook({ name: 'reports', url: process.env.RECEIVER!, triggers: [{ on: 'report.delivered' }] }, auth);
if (hook.status !== 201) throw new Error(JSON.stringify(hook.data));
const schedule = await createReportSchedule({ saved_report_id: saved.data.id, webhook_id: hook.data.id, cron: '0 8 * * 1', timezone: 'Europe/Berlin' }, auth);
if (schedule.status !== 201) throw new Error(JSON.stringify(schedule.data));
const paused = await updateReportSchedule(schedule.data.id, { enabled: false }, auth);
if (paused.status !== 200) throw new Error(JSON.stringify(paused.data));
out.schedule = { timezone: paused.data.timezone, enabled: paused.data.enabled };

// @ts-expect-error: entity is required
await runReportQuery({ since_hours: 1 }, auth);
console.log(JSON.stringify(out));
`;

const EXPECTED = {
  ingested: 202,
  events: ['deploy.failed'],
  rows: [{ source: 'gha', count: 1 }],
  savedRun: 200,
  schedule: { timezone: 'Europe/Berlin', enabled: false },
};

describe('clients generated with default flags by other generators', () => {
  it('@hey-api/openapi-ts and orval (fetch) generate clients that type-check strictly with the seven calls', async () => {
    const hey = await exec(bin('openapi-ts'), ['-i', 'openapi.json', '-o', 'hey'], dir);
    expect(hey.code, hey.stderr + hey.stdout).toBe(0);
    const orval = await exec(
      bin('orval'),
      ['--input', 'openapi.json', '--output', 'orval/api.ts', '--client', 'fetch'],
      dir,
    );
    expect(orval.code, orval.stderr + orval.stdout).toBe(0);
    fs.writeFileSync(path.join(dir, 'hey-program.ts'), HEY);
    fs.writeFileSync(path.join(dir, 'orval-program.ts'), ORVAL);
    // package.json "type": "module" for the programs' top-level await under NodeNext.
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }');
    expect(typeCheck([path.join(dir, 'hey-program.ts'), path.join(dir, 'orval-program.ts')])).toEqual([]);
  });

  for (const name of ['hey', 'orval']) {
    it(`the ${name} program runs its seven calls against the server`, async () => {
      const program = path.join(dir, `${name}-program.ts`);
      expect(fs.existsSync(program), 'the first test wrote the program').toBe(true);
      const env = { BASE: s.url, TOKEN: t.adminToken, INGEST_KEY: t.ingestKey, RECEIVER: receiver.url };
      const r = await exec(process.execPath, ['--import', 'tsx', program], dir, env);
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
      // Both programs ingest the same event into one tenant: the second sees both.
      expect({
        ...out,
        events: [...new Set(out.events)],
        rows: out.rows.map((x: any) => ({ ...x, count: 1 })),
      }).toEqual(EXPECTED);
    });
  }
});
