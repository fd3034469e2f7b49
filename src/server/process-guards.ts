/**
 * Last-resort handlers for errors that escaped every other handler. They are a net, not a fix: each
 * crash found is fixed where it starts (issue 10: the delivery sender's sockets).
 *
 * What is kept serving, and why:
 * - `unhandledRejection`: logged (error), and the process keeps serving. A rejected promise nobody
 *   awaited means an operation already failed and reported nothing; no synchronous code was cut off
 *   half-way, so shared state is as consistent as after any failed request. (Node's default turns it into
 *   an uncaught exception and exits.)
 * - `uncaughtException` from a socket (an errno error of a `connect`, `read` or `write` syscall: EPIPE,
 *   ECONNRESET, ..., emitted as an 'error' event nobody listened to): logged (error), and the process keeps
 *   serving. Node destroys a socket before it emits such an error, so the only casualty is that one
 *   connection; exiting instead would let any peer that resets connections take every tenant down.
 * - any other `uncaughtException`: logged (fatal), then a graceful stop (`shutdown`, bounded by
 *   `exitTimeoutMs`) and exit code 1 for the supervisor to restart the process. An exception thrown past
 *   every handler may have interrupted code half-way (a lock held, a counter not decremented): Node
 *   documents that resuming is unsafe. Nothing accepted is lost by exiting: events, outbox messages and
 *   deliveries are in Postgres and BullMQ jobs are at-least-once.
 */
import type { Server } from 'node:http';
import type { Logger } from '../logger.js';

/** Codes of socket errors that concern one connection only. */
const CONNECTION_ERRORS = new Set([
  'EPIPE',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNREFUSED',
]);

const SOCKET_SYSCALLS = new Set(['read', 'write', 'connect']);

/** True for an errno error from a socket connect, read or write (what an unlistened socket 'error' event throws). */
export function isConnectionError(err: unknown): boolean {
  const e = err as { code?: unknown; syscall?: unknown } | null;
  return (
    !!e &&
    typeof e === 'object' &&
    typeof e.code === 'string' &&
    CONNECTION_ERRORS.has(e.code) &&
    SOCKET_SYSCALLS.has(e.syscall as string)
  );
}

export interface ProcessGuardOptions {
  logger: Logger;
  /** Graceful stop before exiting on a fatal error (e.g. `() => app.stop()`). */
  shutdown?: () => Promise<void>;
  /** Exit even if `shutdown` has not finished after this long (default 10 s). */
  exitTimeoutMs?: number;
  /** How to exit (default `process.exit`). */
  exit?: (code: number) => void;
}

/**
 * Installs the process-level handlers described above; returns a function that removes them. Install it
 * once, where the process starts (not in tests that share a process with the test runner).
 */
export function installProcessGuards(opts: ProcessGuardOptions): () => void {
  const { logger } = opts;
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  let stopping = false;

  const onRejection = (reason: unknown) => {
    logger.error({ err: reason }, 'unhandled promise rejection (kept serving)');
  };
  const onException = (err: Error, origin: string) => {
    if (isConnectionError(err)) {
      logger.error({ err, origin }, 'unhandled socket error (kept serving: the socket is already destroyed)');
      return;
    }
    logger.fatal({ err, origin }, 'uncaught exception; stopping the process');
    if (stopping) return;
    stopping = true;
    const timer = setTimeout(() => exit(1), opts.exitTimeoutMs ?? 10_000);
    timer.unref();
    Promise.resolve()
      .then(() => opts.shutdown?.())
      .catch((e: unknown) => logger.error({ err: e }, 'shutdown after an uncaught exception failed'))
      .finally(() => {
        clearTimeout(timer);
        exit(1);
      });
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}

/**
 * Listens for 'error' on the HTTP server after it is listening and on the graphql-ws WebSocket server.
 * Without it a second server error (e.g. EMFILE on accept) is thrown: ws forwards the HTTP server's
 * errors to the WebSocket server, where graphql-ws listens only `once`.
 */
export function guardServerErrors(
  logger: Logger,
  server: Server,
  wss?: { on(event: 'error', fn: (err: Error) => void): unknown },
): void {
  server.on('error', (err) => logger.error({ err }, 'HTTP server error'));
  wss?.on('error', (err) => logger.error({ err }, 'WebSocket server error'));
}
