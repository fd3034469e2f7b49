/**
 * Creates the Prisma client (Rust-free, driver adapter over `pg`).
 */
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.js';

export type Db = PrismaClient;

/** A Prisma client for the URL; `max` bounds the pool (PGlite serves one connection). */
export function createPrisma(databaseUrl: string, max = 10): PrismaClient {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max });
  return new PrismaClient({ adapter });
}
