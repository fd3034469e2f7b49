/**
 * `npm run lint:contract`: lints the REST contract as /openapi.json serves it (its `servers` an https origin,
 * as behind TLS) with Spectral's OWASP API Security ruleset (.spectral.yaml) and Redocly's recommended ruleset
 * (redocly.yaml). Fails on any error of either; warnings are printed. `npm run lint` runs it, so CI does.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadOpenApi } from '../rest/openapi.js';
import { PROJECT_ROOT } from '../src/project-root.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-contract-'));
const file = path.join(dir, 'openapi.json');
const doc = loadOpenApi();
doc.servers = [{ url: 'https://ops.example.com/api/v1', 'x-internal': false }];
fs.writeFileSync(file, JSON.stringify(doc, null, 2));

function run(label: string, bin: string, args: string[]): boolean {
  console.log(`==> ${label}`);
  const r = spawnSync(path.join(PROJECT_ROOT, 'node_modules', '.bin', bin), args, {
    cwd: PROJECT_ROOT,
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  return r.status === 0;
}

const spectral = run('Spectral (OWASP API Security)', 'spectral', [
  'lint',
  file,
  '--ruleset',
  path.join(PROJECT_ROOT, '.spectral.yaml'),
  '--fail-severity',
  'error',
  '--display-only-failures',
]);
const redocly = run('Redocly (recommended)', 'redocly', [
  'lint',
  file,
  '--config',
  path.join(PROJECT_ROOT, 'redocly.yaml'),
  '--format',
  'summary',
]);
fs.rmSync(dir, { recursive: true, force: true });
process.exit(spectral && redocly ? 0 : 1);
