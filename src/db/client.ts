/**
 * Creates the Prisma client (Rust-free, driver adapter over `pg`) on a `pg` pool of its own making, so the
 * few statements on the delivery hot path can use the same connections without Prisma (src/db/hot-sql.ts).
 */
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.js';

const pools = new WeakMap<PrismaClient, pg.Pool>();

/**
 * A Prisma client for the URL; `max` bounds the pool (PGlite serves one connection); `statementTimeoutMs`
 * (0: none) bounds every statement. `onError` hears
 * errors of idle pooled connections (Postgres restarted, connection killed): the adapter already
 * listens, so they never crash the process; this makes them visible.
 */
export function createPrisma(
  databaseUrl: string,
  max = 10,
  onError?: (err: Error) => void,
  statementTimeoutMs = 0,
): PrismaClient {
  // statement_timeout is a server setting of each pooled session: Postgres cancels a longer statement
  // (SQLSTATE 57014), which the error mapping answers as 503 STATEMENT_TIMEOUT. PGlite cannot interrupt a
  // statement (one session inside this process), so the embedded database runs without it.
  const options = statementTimeoutMs > 0 ? `-c statement_timeout=${Math.floor(statementTimeoutMs)}` : undefined;
  const pool = new pg.Pool({ connectionString: databaseUrl, max, ...(options ? { options } : {}) });
  // The adapter ends the pool when the client disconnects.
  const adapter = new PrismaPg(pool, {
    disposeExternalPool: true,
    ...(onError ? { onPoolError: onError, onConnectionError: onError } : {}),
  });
  const prisma = new PrismaClient({ adapter });
  pools.set(prisma, pool);
  return prisma;
}

/** The `pg` pool under a client made by createPrisma. */
export function poolOf(prisma: PrismaClient): pg.Pool {
  const pool = pools.get(prisma);
  if (!pool) throw new Error('this Prisma client was not made by createPrisma');
  return pool;
}
