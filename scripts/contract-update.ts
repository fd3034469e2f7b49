/**
 * `npm run contract:update`: refreshes the released baselines in `contract/` (the printed GraphQL schema
 * and the merged OpenAPI document, as /openapi.json serves it) after the API grew. It refuses while the
 * guard finds a breaking change that may not pass (docs/api-evolution.md), so a baseline is never moved
 * over a silent break; run `npm run schema:print` first when the GraphQL schema changed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadOpenApi } from '../rest/openapi.js';
import { serviceVersion } from '../src/version.js';
import { PROJECT_ROOT } from '../src/project-root.js';
import { CONTRACT_DIR, checkContract, readBaseline, type ContractSide } from './contract/guard.js';

/** The contract as the tree holds it now: package.json's version, schema.graphql, the merged OpenAPI document. */
export function currentContract(): ContractSide {
  return {
    version: serviceVersion(),
    sdl: fs.readFileSync(path.join(PROJECT_ROOT, 'schema.graphql'), 'utf8'),
    openapi: loadOpenApi(),
  };
}

const current = currentContract();
const hasBaseline = fs.existsSync(path.join(CONTRACT_DIR, 'openapi.json'));
if (hasBaseline) {
  const changelog = fs.readFileSync(path.join(PROJECT_ROOT, 'CHANGELOG.md'), 'utf8');
  const result = await checkContract(readBaseline(), current, changelog, new Date());
  if (result.blocked.length) {
    process.stderr.write(`Not updated: breaking changes against the baseline\n  ${result.blocked.join('\n  ')}\n`);
    process.exit(1);
  }
}
fs.mkdirSync(CONTRACT_DIR, { recursive: true });
fs.writeFileSync(path.join(CONTRACT_DIR, 'schema.graphql'), current.sdl);
fs.writeFileSync(path.join(CONTRACT_DIR, 'openapi.json'), JSON.stringify(current.openapi, null, 2) + '\n');
process.stdout.write(`contract/ updated to ${current.version}\n`);
