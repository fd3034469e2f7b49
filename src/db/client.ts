/**
 * Creates the Prisma client (Rust-free, driver adapter over `pg`).
 */
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.js';

/**
 * A Prisma client for the URL; `max` bounds the pool (PGlite serves one connection); `statementTimeoutMs`
 * (0: none) bounds every statement. `onError` hears
 * errors of idle pooled connections (Postgres restarted, connection killed): the adapter already
 * listens, so they never crash the process; this makes them visible.
 */
export function createPrisma(databaseUrl: string, max = 10, onError?: (err: Error) => void, statementTimeoutMs = 0): PrismaClient {
  // statement_timeout is a server setting of each pooled session: Postgres cancels a longer statement
  // (SQLSTATE 57014), which the error mapping answers as 503 STATEMENT_TIMEOUT. PGlite cannot interrupt a
  // statement (one session inside this process), so the embedded database runs without it.
  const options = statementTimeoutMs > 0 ? `-c statement_timeout=${Math.floor(statementTimeoutMs)}` : undefined;
  const adapter = new PrismaPg({ connectionString: databaseUrl, max, ...(options ? { options } : {}) }, onError ? { onPoolError: onError, onConnectionError: onError } : undefined);
  return new PrismaClient({ adapter });
}
