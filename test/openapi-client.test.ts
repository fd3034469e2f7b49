/**
 * A client generated from the served contract with default flags (issue 24, point 15): openapi-typescript
 * turns the real server's `/openapi.json` into types, a program using openapi-fetch is type-checked by tsc
 * (strict) and then run against the same server. docs/integrating.md's "Typed clients from the contract" runs
 * as written: its openapi-typescript command generates the types its example is type-checked against and run with.
 *
 * What used to break a default-flags client: request fields with a `default` in a shared schema came out
 * required (openapi-typescript keeps a defaulted property optional only inside parameters and request
 * bodies), and free-form objects (`type: object` with no properties) came out `Record<string, never>`, so
 * no payload, config or parameters could be passed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import ts from 'typescript';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { REPO_ROOT } from './helpers/cli.js';
import { buildTenant, type BuiltTenant } from './factories.js';
import { docBlocks, fencedBlocks } from './helpers/docs.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';

let s: TestServer;
let t: BuiltTenant;
let receiver: Receiver;
// Inside the repository, so the programs resolve openapi-fetch from its node_modules (test-results/ is not committed).
const dir = path.join(REPO_ROOT, 'test-results', `openapi-client-${process.pid}`);
// The documented command and example run in a directory of their own, as in a reader's project.
const docDir = path.join(dir, 'doc');

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_URL_ALLOWLIST: '127.0.0.1' } });
  t = await buildTenant(s.app.rt);
  receiver = await startReceiver();
  fs.mkdirSync(docDir, { recursive: true });
}, 120_000);
afterAll(async () => {
  await receiver?.close();
  await s?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * The typed-client section of docs/integrating.md: its shell block (the openapi-typescript command, run as written
 * in `docDir` with B set) and its ```ts example, which is type-checked against what that command wrote.
 */
function docExample(): string {
  const docs = fs.readFileSync(path.join(REPO_ROOT, 'docs/integrating.md'), 'utf8');
  const block = fencedBlocks(docs).find(
    (b) => b.lang === 'ts' && b.headings.includes('Typed clients from the contract'),
  );
  expect(block, 'docs/integrating.md has a ts example under "Typed clients from the contract"').toBeTruthy();
  return block!.code;
}

/** Runs a shell block in `cwd` (bash, `set -euo pipefail`) with `env` added. */
function shell(
  script: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--norc', '--noprofile', '-c', `set -euo pipefail\n${script}`], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** tsc's diagnostics for the files, strict, as an ES module program of this package (NodeNext). */
function typeCheck(files: string[]): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    skipLibCheck: false,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file
      ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
      : '';
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

function run(
  file: string,
  env: Record<string, string>,
  cwd = dir,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// Calls that leave every defaulted field out, send free-form objects, and (as @ts-expect-error lines)
// mistakes the types must refuse: if the client were untyped, those lines would be errors themselves.
const PROGRAM = `import createClient from 'openapi-fetch';
import type { paths } from './ops-api.js';

const base = process.env.BASE + '/api/v1';
const ops = createClient<paths>({ baseUrl: base, headers: { authorization: 'Bearer ' + process.env.TOKEN } });
const ingest = createClient<paths>({ baseUrl: base, headers: { 'x-service-key': process.env.INGEST_KEY! } });
const out: Record<string, unknown> = {};

const sent = await ingest.POST('/events', { body: { type: 'deploy.failed', module: 'ci', source: 'gha', severity: 'critical', payload: { sha: 'abc', nested: { n: 1 } } } });
out.ingested = sent.response.status;
const events = await ops.GET('/events', { params: { query: { module: 'ci' } } });
out.events = events.data?.map((e) => e.type);

const query = await ops.POST('/reports/query', { body: { entity: 'events', group_by: ['source'], aggregate: [{ fn: 'count' }] } });
if (query.error) throw new Error(JSON.stringify(query.error));
out.rows = query.data.rows;

const saved = await ops.POST('/reports/saved', { body: { name: 'by source', query: { entity: 'events', group_by: ['source'], aggregate: 'count' } } });
if (saved.error) throw new Error(JSON.stringify(saved.error));
const run = await ops.POST('/reports/saved/{reportId}/run', { params: { path: { reportId: saved.data.id } }, body: { parameters: { since_hours: 2 } } });
out.savedRun = run.response.status;

const hook = await ops.POST('/outbound-webhooks', { body: { name: 'reports', url: process.env.RECEIVER!, triggers: [{ on: 'report.delivered' }] } });
if (hook.error) throw new Error(JSON.stringify(hook.error));
const schedule = await ops.POST('/reports/schedules', { body: { saved_report_id: saved.data.id, webhook_id: hook.data.id, cron: '0 8 * * 1', timezone: 'Europe/Berlin', parameters: { limit: 10 } } });
if (schedule.error) throw new Error(JSON.stringify(schedule.error));
const paused = await ops.PATCH('/reports/schedules/{scheduleId}', { params: { path: { scheduleId: schedule.data.id } }, body: { enabled: false } });
out.schedule = { timezone: paused.data?.timezone, format: paused.data?.format, enabled: paused.data?.enabled };

// @ts-expect-error: entity is required
await ops.POST('/reports/query', { body: { since_hours: 1 } });
// @ts-expect-error: not an entity
await ops.POST('/reports/query', { body: { entity: 'nope' } });
// @ts-expect-error: a schedule needs its saved report, webhook and cron
await ops.POST('/reports/schedules', { body: { timezone: 'UTC' } });
// @ts-expect-error: no such path
await ops.GET('/no-such-path');

console.log(JSON.stringify(out));
`;

describe('a client generated from /openapi.json with default flags', () => {
  it(
    'openapi-typescript makes every defaulted field optional and no object closed to all keys',
    { timeout: 240_000 },
    async () => {
      const res = await fetch(`${s.url}/openapi.json`);
      expect(res.status).toBe(200);
      const types = astToString(await openapiTS(await res.json()));
      fs.writeFileSync(path.join(dir, 'ops-api.d.ts'), types);

      // A property documented `@default` (openapi-typescript writes the schema's default as JSDoc) is optional.
      const lines = types.split('\n');
      const requiredWithDefault: string[] = [];
      lines.forEach((line, i) => {
        if (!/@default\b/.test(line)) return;
        const prop = lines.slice(i + 1, i + 4).find((l) => /^\s*("[^"]+"|[\w$]+)\??:/.test(l));
        if (prop && !/^\s*("[^"]+"|[\w$]+)\?:/.test(prop)) requiredWithDefault.push(prop.trim());
      });
      expect(requiredWithDefault).toEqual([]);
      // `Record<string, never>` is an object no key may be given to; only the empty `$defs` export may be one.
      expect(lines.filter((l) => l.includes('Record<string, never>') && !/^export type \$defs = /.test(l))).toEqual([]);
      expect(types).toContain(
        'WithRequired<components["schemas"]["ReportsScheduleFields"], "saved_report_id" | "webhook_id" | "cron">',
      );

      fs.writeFileSync(path.join(dir, 'program.ts'), PROGRAM);

      // The documented command, as written, writes the types the documented example is checked against.
      const [command] = docBlocks('typed-client');
      expect(command).toContain('openapi-typescript');
      const generated = await shell(command!, docDir, { B: s.url });
      expect(generated.code, generated.stderr).toBe(0);
      expect(fs.readFileSync(path.join(docDir, 'ops-api.d.ts'), 'utf8')).toContain('export interface paths');
      fs.writeFileSync(path.join(docDir, 'example.ts'), docExample());
      // One program for both (tsc's start-up is most of its time).
      expect(typeCheck([path.join(dir, 'program.ts'), path.join(docDir, 'example.ts')])).toEqual([]);
    },
  );

  it(
    'the type-checked programs run against the server: defaults filled in by the service, an update keeps what it leaves out',
    { timeout: 120_000 },
    async () => {
      expect(fs.existsSync(path.join(dir, 'program.ts')), 'the first test wrote the programs').toBe(true);
      const env = { BASE: s.url, TOKEN: t.adminToken, INGEST_KEY: t.ingestKey, RECEIVER: receiver.url };
      const program = await run('program.ts', env);
      expect(program.code, program.stderr).toBe(0);
      const out = JSON.parse(program.stdout.trim().split('\n').at(-1)!);
      expect(out.ingested).toBe(202);
      expect(out.events).toEqual(['deploy.failed']);
      expect(out.rows).toEqual([{ source: 'gha', count: 1 }]);
      expect(out.savedRun).toBe(200);
      // PATCH {enabled: false} leaves timezone and format as they were (the request validator used to fill in
      // the schema defaults UTC and json, which reset them on every update).
      expect(out.schedule).toEqual({ timezone: 'Europe/Berlin', format: 'json', enabled: false });

      const example = await run('example.ts', env, docDir);
      expect(example.code, example.stderr).toBe(0);
      expect(example.stdout).toContain('[]'); // no alerts in this tenant yet: an empty list of critical open alerts
    },
  );
});
