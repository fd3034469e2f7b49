/**
 * `npm start`: the API and the workers in one process.
 */
import { loadConfig, ConfigError } from '../config.js';
import type { Server } from 'node:http';
import { startStorage } from './storage.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Configuration error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  // The embedded database and redis-server come up while the rest of the service loads (most of a
  // restart's time is loading modules: the GraphQL schema, Prisma, BullMQ, the REST contract).
  const storage = startStorage(config);
  storage.catch(() => undefined); // startApp awaits it and reports a failure
  const [{ startApp }, { installProcessGuards }, { ensureConsoleBuilt }] = await Promise.all([
    import('./app.js'),
    import('./process-guards.js'),
    import('./console.js'),
  ]);
  await ensureConsoleBuilt((m) => console.log(m));
  // A person at a terminal reads lines; a log collector (stdout piped or redirected) gets JSON.
  const prettyLogs = process.stdout.isTTY === true;
  const app = await startApp(config, { prettyLogs, storage });
  installProcessGuards({ logger: app.rt.logger, shutdown: () => app.stop() });
  const { logger } = app.rt;
  // Installed before the service says it is listening: a signal sent on that line is handled (and logged).
  let stopping = false;
  const shutdown = (signal: string) => {
    // A repeat is ignored: Ctrl-C in a terminal reaches this process twice (from the terminal and
    // forwarded by npm), and the drain below is bounded anyway.
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // A drain that hangs (a stuck connection or job) must not keep the process alive forever.
    setTimeout(() => {
      logger.error('shutdown did not finish within 30 s; exiting');
      process.exit(1);
    }, 30_000).unref();
    app.stop().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  const where = {
    embeddedPostgres: !config.databaseUrl,
    localRedis: !config.redisUrl && !config.redisCluster,
    redisCluster: !!config.redisCluster,
    workers: !!app.workers,
  };
  const bound = app.server ? boundAddress(app.server.server) : null;
  if (app.server) logger.info({ url: app.url, address: bound, ...where }, 'operations service listening');
  else logger.info(where, 'operations worker running (RUN_HTTP=false)');
  if (app.demoLogin) {
    // Printed once, on the first start of an empty database; never logged.
    process.stdout.write(
      [
        '',
        '  Demo tenant created. Log in with:',
        `    email:      ${app.demoLogin.email}`,
        `    password:   ${app.demoLogin.password}`,
        `    ingest key: ${app.demoLogin.ingestKey}`,
        `  Console: ${app.url}/   API docs: ${app.url}/docs   GraphQL: ${app.url}/graphql`,
        `  curl -s ${app.url}/api/v1/auth/login -H 'content-type: application/json' \\`,
        `    -d '{"email":"${app.demoLogin.email}","password":"${app.demoLogin.password}"}'`,
        '  (This is shown only once. Set BOOTSTRAP_DEMO=false in production.)',
        '  Anyone may introspect the GraphQL schema outside production: set NODE_ENV=production or',
        '  INTROSPECTION=authenticated|off to turn that off (README: Production checklist).',
        '',
      ].join('\n') + '\n',
    );
  }
  if (app.server && prettyLogs) {
    process.stdout.write(
      `\n  Ready. Console ${app.url}/   API ${app.url}/api/v1   Docs ${app.url}/docs   GraphQL ${app.url}/graphql\n` +
        `  ${exposureNote(config.host, bound)}\n` +
        `  Logs: one line per request (LOG_LEVEL=warn for fewer, or pipe stdout for JSON). Ctrl-C stops the service.\n\n`,
    );
  }
}

/** The address the HTTP server really listens on, `host:port` (IPv6 in brackets). */
function boundAddress(server: Server): string | null {
  const a = server.address();
  if (!a || typeof a === 'string') return a;
  return `${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
}

/** One line of the banner saying who can reach the service. */
function exposureNote(host: string, bound: string | null): string {
  if (host === '0.0.0.0' || host === '::')
    return `Listening on ${bound} (every interface: other machines can reach it; README: Production checklist).`;
  if (host === 'localhost' || host === '::1' || host.startsWith('127.'))
    return `Listening on ${bound}, this machine only (HOST=0.0.0.0 exposes it; README: Production checklist).`;
  return `Listening on ${bound}.`;
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
