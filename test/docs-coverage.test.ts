/**
 * Every shell block of README.md and docs/*.md is run by a test (issue 39, point 5). The registry
 * (test/docs-registry.ts) says which test runs which file or section; this test fails on a shell block that no
 * entry covers (a new page's blocks included, until its line is added), on an entry that covers nothing, and on
 * an entry whose test does not take its blocks from the registry.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/cli.js';
import { blocksOf, documentationFiles, fencedBlocks, uncoveredBlocks } from './helpers/docs.js';
import { DOC_RUNS } from './docs-registry.js';

describe('the documentation shell blocks', () => {
  it('are each run by a test named in test/docs-registry.ts', () => {
    const uncovered = uncoveredBlocks(DOC_RUNS);
    expect(
      uncovered,
      'shell blocks no test runs: add a line to test/docs-registry.ts (generic: true runs a docs file after the ' +
        'quickstart against a fresh server), or make a block that is not meant to run a `text` or `console` block',
    ).toEqual([]);
  });

  it('leave the README a front door: 500 lines at most, guides in docs/', () => {
    const lines = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(500);
  });

  it('have a language on every fence, so no command hides in an untagged block', () => {
    const untagged = documentationFiles().flatMap((file) =>
      fencedBlocks(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8'))
        .filter((b) => b.lang === '')
        .map((b) => `${file}:${b.line}`),
    );
    expect(untagged).toEqual([]);
  });

  it('registry entries each name an existing file and cover at least one block', () => {
    expect(new Set(DOC_RUNS.map((r) => r.id)).size).toBe(DOC_RUNS.length);
    for (const run of DOC_RUNS) {
      expect(fs.existsSync(path.join(REPO_ROOT, run.file)), `${run.id}: ${run.file} exists`).toBe(true);
      expect(
        blocksOf(run).length,
        `${run.id}: ${run.file} ${run.sections?.join(', ') ?? ''} has shell blocks`,
      ).toBeGreaterThan(0);
    }
  });

  it("registry entries are run by their test: it reads them with docBlocks('<id>'), or is the generic runner", () => {
    for (const run of DOC_RUNS) {
      const source = fs.readFileSync(path.join(REPO_ROOT, run.test), 'utf8');
      if (run.generic) {
        expect(run.test, run.id).toBe('test/docs-run.test.ts');
        expect(source).toMatch(/DOC_RUNS\.filter\(\(r\) => r\.generic\)/);
      } else {
        expect(source, `${run.test} runs docBlocks('${run.id}')`).toContain(`docBlocks('${run.id}')`);
      }
    }
  });

  it('finds a shell block that no entry covers, in a file added under docs/', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-coverage-'));
    try {
      fs.mkdirSync(path.join(root, 'docs'));
      fs.writeFileSync(path.join(root, 'README.md'), '# Title\n\n## Run\n\n```bash\necho covered\n```\n');
      fs.writeFileSync(
        path.join(root, 'docs/new.md'),
        '# New\n\n```text\nnot a command\n```\n\n## Setup\n\n```sh\necho not covered\n```\n',
      );
      const runs = [{ id: 'r', file: 'README.md', sections: ['Run'], test: 'x' }];
      expect(uncoveredBlocks(runs, root)).toEqual(['docs/new.md:9 (Setup): echo not covered']);
      expect(uncoveredBlocks([...runs, { id: 'n', file: 'docs/new.md', test: 'x', generic: true }], root)).toEqual([]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
