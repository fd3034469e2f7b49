/**
 * Boots the service: storage (real or embedded), migrations, demo bootstrap, runtime, HTTP server and
 * workers. `stop()` shuts down in reverse order: stop accepting, drain HTTP, finish jobs, close pools.
 */
import type { Config } from '../config.js';
import type { Clock } from '../clock.js';
import { createRuntime, type Runtime } from '../runtime.js';
import { applyMigrations } from '../db/migrate.js';
import { startStorage, type Storage } from './storage.js';
import { buildRuntimeParts } from './runtime-parts.js';
import { bootstrapDemoTenant, type DemoLogin } from '../tenants/bootstrap.js';
import { listen, type RunningServer } from './http.js';
import { startAdminSocket } from './admin-socket.js';
import { startWorkers, type Workers } from '../../workers/index.js';
import { schema } from '../../schema/index.js';

export interface App {
  rt: Runtime;
  url: string;
  demoLogin: DemoLogin | null;
  server?: RunningServer;
  workers?: Workers;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Serve HTTP (default: config.runHttp). A worker-only process sets false. */
  http?: boolean;
  /** Run BullMQ workers in this process (default: config.runWorkers). */
  workers?: boolean;
  validateResponses?: boolean;
  /** The clock every rule reads (default: the system clock). */
  clock?: Clock;
  /** Readable log lines for a terminal instead of JSON (`npm start` sets it when stdout is a TTY). */
  prettyLogs?: boolean;
  /** Storage already being started (`npm start` begins it before loading the rest); else started here. */
  storage?: Promise<Storage>;
}

export async function startApp(config: Config, opts: StartOptions = {}): Promise<App> {
  const stoppers: Array<() => Promise<void>> = [];
  const {
    databaseUrl,
    poolSize,
    redisTarget,
    stoppers: storageStoppers,
  } = await (opts.storage ?? startStorage(config));
  stoppers.push(...storageStoppers);
  await applyMigrations(databaseUrl);
  const rt = createRuntime(config, databaseUrl, redisTarget, {
    parts: buildRuntimeParts,
    poolSize,
    clock: opts.clock,
    prettyLogs: opts.prettyLogs,
  });
  stoppers.push(() => rt.close());
  // The demo bootstrap (Postgres), the workers (mostly Redis round trips) and the HTTP server (mostly
  // CPU: the schema, the REST contract) start side by side; "listening" is logged once all three are up.
  const [demoLogin, workers, server] = await Promise.all([
    config.bootstrapDemo ? bootstrapDemoTenant(rt.prisma) : null,
    (opts.workers ?? config.runWorkers) ? startWorkers(rt) : undefined,
    (opts.http ?? config.runHttp)
      ? listen(rt, { schema, validateResponses: opts.validateResponses }, config.port, config.host)
      : undefined,
  ]);
  if (workers) stoppers.push(() => workers.close());
  if (server) stoppers.push(() => server.close());
  if (!config.databaseUrl) {
    // The embedded database is this process's alone: operator commands reach it through this socket.
    const socket = await startAdminSocket(rt, config.dataDir, server?.url);
    if (socket) stoppers.push(() => socket.close());
  }
  let stopped: Promise<void> | undefined;
  return {
    rt,
    url: server?.url ?? '',
    demoLogin,
    server,
    workers,
    stop: () =>
      (stopped ??= (async () => {
        for (const stop of stoppers.reverse()) {
          try {
            await stop();
          } catch (err) {
            rt.logger.warn({ err }, 'error during shutdown');
          }
        }
      })()),
  };
}
