import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';
import DurationSequencer from './test/sequencer.js';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // Node loads graphql's CommonJS entry for the libraries; make our own imports get the same copy
    // (Vite would otherwise pick index.mjs and graphql would see two module instances).
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Deadlines for a test that hangs, not for speed: tests wait for facts, and a 2-core machine running
    // other work (CI neighbours, `stress-ng --cpu 2`) can take several times as long as an idle one.
    testTimeout: 180000,
    hookTimeout: 180000,
    // expect.poll waits for a fact too: vitest's default gives up after 1 s, which a page refresh on a
    // loaded machine can take (console-insight-fleet's month-to-date poll failed that way under stress-ng).
    expect: { poll: { timeout: 30_000, interval: 50 } },
    pool: 'forks',
    // Test files share each worker's module graph: every file starts its own server, database and Redis
    // prefix, and no test changes process-wide state (no env writes, no module mocks), so importing the
    // service once per worker rather than once per file is safe. Measured: import 201 s → 18 s summed over
    // the 135 files, the suite's CPU time 13.1 → 8.6 min.
    isolate: false,
    // Each file boots its own server and database; two cores run two files at a time.
    maxWorkers: 2,
    fileParallelism: true,
    // Longest files first (test/durations.json), so no long file starts last and leaves a core idle.
    sequence: { sequencer: DurationSequencer },
    experimental: {
      // Transformed modules kept on disk (under node_modules, keyed by content), so a second run, or the
      // next of three in a row, does not transform src/, schema/, rest/ and the tests again: measured on
      // three files, transform 4.2 s → 0.7 s and import 9.3 s → 5.0 s once warm. `vitest --clearCache` empties it.
      fsModuleCache: true,
    },
  },
});
