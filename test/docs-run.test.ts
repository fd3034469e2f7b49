/**
 * The generic runner of the documentation's shell blocks (issue 39): each docs file that test/docs-registry.ts
 * marks `generic: true` runs as pasted, after the README's quickstart, in one bash shell with
 * `set -euo pipefail`, against a fresh service process in the environment test/helpers/docs-env.ts gives (the
 * one test/readme-using-it.test.ts runs "Using it" in: receivers on 127.0.0.1 for the example hosts, the service
 * as the hub, a stand-in nvidia-smi). Every block must exit 0 and no command may answer an error body.
 *
 * The quickstart runs once (test/quickstart.test.ts checks what it does): its service stops, and each file
 * starts from what it left (a copy of its DATA_DIR and its Redis keys, the variables its shell set), on a
 * service process of its own, so no file sees another's changes. One quickstart and one first start (the
 * embedded database migrated from nothing) instead of one per file: the runner took 261 s of the suite's time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { testRedisPrefix } from './helpers/env.js';
import { blocksOf } from './helpers/docs.js';
import { errorBodies, runQuickstart, startDocsEnv, type AfterQuickstart, type DocsEnv } from './helpers/docs-env.js';
import { DOC_RUNS } from './docs-registry.js';

const redisPrefix = `${testRedisPrefix(inject('testRunId'))}docs${process.pid}`;
let quickstart: AfterQuickstart;
beforeAll(async () => {
  quickstart = await runQuickstart('ops-docs-quickstart', redisPrefix);
}, 300_000);
afterAll(() => quickstart?.drop());

for (const run of DOC_RUNS.filter((r) => r.generic)) {
  describe(`${run.file} runs as written`, () => {
    let env: DocsEnv;
    beforeAll(async () => {
      env = await startDocsEnv(`ops-docs-${run.id}`, redisPrefix, quickstart);
    }, 180_000);
    afterAll(async () => {
      await env?.close();
    });

    it(
      'every block exits 0 after the quickstart, in one shell, and no command answers an error',
      { timeout: 900_000 },
      async () => {
        const blocks = blocksOf(run).map((b) => ({ name: `${run.file}:${b.line}`, code: b.code }));
        expect(blocks.length).toBeGreaterThan(0);
        const result = await env.run(blocks);
        const failed = blocks[result.passed.length];
        expect(
          { code: result.code, passed: result.passed },
          `block "${failed?.name}" failed:\n${failed?.code ?? ''}\n--- stdout\n${result.stdout.slice(-6000)}\n--- stderr\n${result.stderr.slice(-4000)}`,
        ).toEqual({ code: 0, passed: blocks.map((b) => b.name) });
        const out = result.stdout.slice(result.stdout.indexOf(`__block_start ${blocks[0]!.name}`));
        expect(errorBodies(out), out.slice(-6000)).toEqual([]);
      },
    );
  });
}
