/**
 * The two databases the service runs on, for the partitioned-history tests: a real Postgres
 * (DATABASE_URL) and the embedded PGlite (no DATABASE_URL). Both without workers: the periodic
 * retention and rollup tasks would race the runs the tests make and inspect.
 */
import fs from 'node:fs';
import { startApp, type App } from '../../src/server/app.js';
import { startTestServer, testConfig } from './server.js';

export interface Backend {
  app: App;
  /** Where `ops` finds the service's database. */
  cliEnv: Record<string, string | undefined>;
  stop(): Promise<void>;
}

export async function postgresBackend(): Promise<Backend> {
  const s = await startTestServer({ start: { workers: false } });
  return {
    app: s.app,
    cliEnv: { DATABASE_URL: s.db.url, DATA_DIR: s.config.dataDir, APP_SECRET: 'test-secret-'.padEnd(48, 'x') },
    stop: s.stop,
  };
}

export async function pgliteBackend(): Promise<Backend> {
  const config = testConfig('postgresql://unused/unused');
  config.databaseUrl = undefined; // the embedded PGlite under DATA_DIR, as `npm start` without DATABASE_URL
  const app = await startApp(config, { validateResponses: true, workers: false });
  return {
    app,
    cliEnv: { DATA_DIR: config.dataDir, APP_SECRET: 'test-secret-'.padEnd(48, 'x') },
    stop: async () => {
      await app.stop();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

export const BACKENDS = [
  ['postgres', postgresBackend],
  ['pglite', pgliteBackend],
] as const;
