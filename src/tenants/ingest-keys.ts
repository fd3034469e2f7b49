/**
 * Per-tenant ingest keys for POST /events: creating, verifying, and managing them from the API (admins,
 * declared on the fields): list the keys that still work, rotate. Stored as hashes; rotation keeps the
 * old keys valid 24 h.
 */
import { ROTATION_GRACE_MS, rotationInGrace } from '../auth/secret-rotation.js';
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import type { IngestKey, PrismaClient } from '../generated/prisma/client.js';
import { randomSecret, tokenHash } from '../secrets.js';
import type { Principal } from '../principal.js';
import { Unauthenticated } from '../errors.js';

const INGEST_KEY_PREFIX = 'sik_';
const INGEST_KEY_GRACE_MS = ROTATION_GRACE_MS;

type Tx = Pick<PrismaClient, 'ingestKey'>;

/** Creates a key for the tenant; returns the cleartext once. */
export async function createIngestKey(db: Tx, tenantId: string): Promise<{ id: string; cleartext: string }> {
  const cleartext = randomSecret(INGEST_KEY_PREFIX, 32);
  const row = await db.ingestKey.create({
    data: { tenantId, keyHash: tokenHash(cleartext), keyPrefix: cleartext.slice(0, 10) },
  });
  return { id: row.id, cleartext };
}

/** New current key; every older key stays valid for 24 hours (or less, if it was already ending). */
export async function rotateIngestKey(
  prisma: PrismaClient,
  tenantId: string,
  now: Date,
): Promise<{ id: string; cleartext: string; previousValidUntil: Date }> {
  const previousValidUntil = new Date(now.getTime() + INGEST_KEY_GRACE_MS);
  return prisma.$transaction(async (tx) => {
    // One rotation of a tenant's keys at a time (the lock ends with the transaction), and none while a
    // rotated-away key still works.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${'ingest-key-rotation:' + tenantId}, 0))`;
    const inGrace = await tx.ingestKey.findFirst({
      where: { tenantId, validUntil: { gt: now } },
      orderBy: { validUntil: 'desc' },
    });
    if (inGrace) throw rotationInGrace('ingest key', inGrace.validUntil);
    await tx.ingestKey.updateMany({ where: { tenantId, validUntil: null }, data: { validUntil: previousValidUntil } });
    const key = await createIngestKey(tx, tenantId);
    return { ...key, previousValidUntil };
  });
}

/** The tenant principal for an X-Service-Key value; 401 when missing, unknown or past its grace. */
export async function authenticateIngestKey(
  prisma: PrismaClient,
  key: string | undefined | null,
  now: Date,
): Promise<Principal> {
  if (!key) throw new Unauthenticated('Missing X-Service-Key header.', 'INGEST_KEY_INVALID');
  const row = await prisma.ingestKey.findUnique({
    where: { keyHash: tokenHash(key) },
    select: { id: true, tenantId: true, validUntil: true },
  });
  if (!row || (row.validUntil && row.validUntil <= now))
    throw new Unauthenticated('Invalid X-Service-Key.', 'INGEST_KEY_INVALID');
  return {
    tenantId: row.tenantId,
    userId: null,
    email: null,
    role: null,
    userKind: null,
    credential: { kind: 'ingest_key', id: row.id },
  };
}

/** Keys of the caller's tenant that are current or still in their rotation grace, newest first. */
export async function listIngestKeys(ctx: Ctx): Promise<IngestKey[]> {
  requireUser(ctx);
  return ctx.db.ingestKey.findMany({
    where: { OR: [{ validUntil: null }, { validUntil: { gt: ctx.rt.clock.now() } }] },
    orderBy: { createdAt: 'desc' },
  });
}

/** A new current key for the caller's tenant (cleartext returned once); older keys keep working for 24 hours. */
export async function rotateTenantIngestKey(
  ctx: Ctx,
): Promise<{ id: string; cleartext: string; previousValidUntil: Date }> {
  const me = requireUser(ctx);
  return rotateIngestKey(ctx.db as PrismaClient, me.tenantId, ctx.rt.clock.now());
}
