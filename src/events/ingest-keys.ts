/**
 * Managing the tenant's ingest keys from the API (admins): list the keys that still work, rotate.
 * Key storage and verification live in src/tenants/ingest-keys.ts.
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import type { IngestKey, PrismaClient } from '../generated/prisma/client.js';
import { rotateIngestKey } from '../tenants/ingest-keys.js';

/** Keys of the caller's tenant that are current or still in their rotation grace, newest first. */
export async function listIngestKeys(ctx: Ctx): Promise<IngestKey[]> {
  requireUser(ctx);
  return ctx.db.ingestKey.findMany({ where: { OR: [{ validUntil: null }, { validUntil: { gt: new Date() } }] }, orderBy: { createdAt: 'desc' } });
}

/** A new current key (cleartext returned once); older keys keep working for 24 hours. */
export async function rotateTenantIngestKey(ctx: Ctx): Promise<{ id: string; cleartext: string; previousValidUntil: Date }> {
  const me = requireUser(ctx);
  return rotateIngestKey(ctx.db as PrismaClient, me.tenantId);
}
