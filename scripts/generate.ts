/**
 * Generates the Prisma client and Pothos types offline.
 * Prisma's CLI wants a native schema engine it would download; `generate` never runs it, so any
 * existing file satisfies the check (see docs/design.md "Environment facts").
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const prismaCli = require.resolve('prisma/build/index.js');
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
  CHECKPOINT_DISABLE: '1',
};
const result = spawnSync(process.execPath, [prismaCli, 'generate', '--no-hints'], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
