/**
 * Creates the Prisma client (Rust-free, driver adapter over `pg`).
 */
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.js';

/**
 * A Prisma client for the URL; `max` bounds the pool (PGlite serves one connection). `onError` hears
 * errors of idle pooled connections (Postgres restarted, connection killed): the adapter already
 * listens, so they never crash the process; this makes them visible.
 */
export function createPrisma(databaseUrl: string, max = 10, onError?: (err: Error) => void): PrismaClient {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max }, onError ? { onPoolError: onError, onConnectionError: onError } : undefined);
  return new PrismaClient({ adapter });
}
