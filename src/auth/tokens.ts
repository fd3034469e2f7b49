/**
 * Personal access tokens: mint, list, revoke, reactivate, rotate, purge. The cleartext exists only
 * in the return value of mint/rotate; the database keeps a SHA-256 hash and a short prefix.
 */
import { ROTATION_GRACE_MS, rotationInGrace } from './secret-rotation.js';
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { Conflict, NotFound, ValidationFailed, type FieldProblem } from '../errors.js';
import type { AccessToken, PrismaClient } from '../generated/prisma/client.js';
import { randomSecret, tokenHash } from '../secrets.js';
import { PAT_PREFIX, patIsUsable } from './authenticate.js';
import { assertMayMintFor, assertMayMintForOthers, mayListTokensOf, mayManageToken } from './policy.js';

const REACTIVATION_WINDOW_MS = 7 * 24 * 3600 * 1000;
const DAY_MS = 24 * 3600 * 1000;
const MAX_EXPIRY_DAYS = 3650;

export interface MintTokenInput {
  name: string;
  description?: string | null;
  /** null or undefined: never expires. */
  expiresInDays?: number | null;
  /** Admins may mint on behalf of a service user of their tenant. */
  userId?: string | null;
}

export interface MintedToken {
  token: AccessToken;
  cleartext: string;
}

/** Tells live views (the tokenChanged subscription) about a change to a token. */
async function announce(
  ctx: Ctx,
  t: AccessToken,
  change: 'created' | 'revoked' | 'reactivated' | 'rotated',
): Promise<void> {
  ctx.rt.pubsub.publish('tokenChanged', t.tenantId, { id: t.id, userId: t.userId, change });
}

export type TokenStatus = 'active' | 'revoked' | 'expired';

/** The state shown to users; rotation grace counts as active until it ends. */
export function tokenStatus(t: AccessToken, now: Date): TokenStatus {
  if (t.revokedAt) return 'revoked';
  return patIsUsable(t, now) ? 'active' : 'expired';
}

function validateMint(input: MintTokenInput): void {
  const problems: FieldProblem[] = [];
  const name = input.name?.trim() ?? '';
  if (name.length === 0 || name.length > 100)
    problems.push({ loc: ['input', 'name'], msg: 'must be 1 to 100 characters' });
  if (input.description != null && input.description.length > 500)
    problems.push({ loc: ['input', 'description'], msg: 'must be at most 500 characters' });
  const d = input.expiresInDays;
  if (d != null && (!Number.isInteger(d) || d < 1 || d > MAX_EXPIRY_DAYS)) {
    problems.push({
      loc: ['input', 'expiresInDays'],
      msg: `must be an integer from 1 to ${MAX_EXPIRY_DAYS}, or null/omitted for a token that never expires`,
    });
  }
  if (problems.length) throw new ValidationFailed(problems);
}

/** Loads a token the caller may manage: their own, or (admins) a service user's. Others are 404. */
async function loadManageable(ctx: Ctx, id: string): Promise<AccessToken> {
  const me = requireUser(ctx);
  const token = await ctx.db.accessToken.findUnique({ where: { id }, include: { user: { select: { kind: true } } } });
  if (!token || !mayManageToken(me, token)) throw new NotFound('Token');
  return token;
}

async function insertToken(
  db: Pick<PrismaClient, 'accessToken'>,
  data: {
    userId: string;
    createdById: string;
    name: string;
    description?: string | null;
    expiresAt: Date | null;
    createdAt: Date;
  },
): Promise<MintedToken> {
  const cleartext = randomSecret(PAT_PREFIX, 32);
  const token = await db.accessToken.create({
    data: {
      userId: data.userId,
      createdById: data.createdById,
      name: data.name,
      description: data.description ?? null,
      expiresAt: data.expiresAt,
      createdAt: data.createdAt, // rotation keeps expiresAt − createdAt: both from the service clock
      tokenHash: tokenHash(cleartext),
      tokenPrefix: cleartext.slice(0, PAT_PREFIX.length + 6),
    } as never,
  });
  return { token, cleartext };
}

/** Mints a token; the cleartext is returned once and never stored. */
export async function mintToken(ctx: Ctx, input: MintTokenInput): Promise<MintedToken> {
  const me = requireUser(ctx);
  validateMint(input);
  let ownerId = me.userId;
  if (input.userId && input.userId !== me.userId) {
    assertMayMintForOthers(me);
    const owner = await ctx.db.user.findUnique({ where: { id: input.userId } });
    if (!owner) throw new NotFound('User');
    assertMayMintFor(me, owner);
    ownerId = owner.id;
  }
  const now = ctx.rt.clock.now();
  const expiresAt = input.expiresInDays == null ? null : new Date(now.getTime() + input.expiresInDays * DAY_MS);
  const minted = await insertToken(ctx.db, {
    userId: ownerId,
    createdById: me.userId,
    name: input.name.trim(),
    description: input.description,
    expiresAt,
    createdAt: now,
  });
  await announce(ctx, minted.token, 'created');
  return minted;
}

/** The caller's tokens (or a service user's, for admins), newest first, without cleartext. */
export async function listTokens(ctx: Ctx, userId?: string | null): Promise<AccessToken[]> {
  const me = requireUser(ctx);
  let ownerId = me.userId;
  if (userId && userId !== me.userId) {
    const owner = await ctx.db.user.findUnique({ where: { id: userId } });
    if (!owner || !mayListTokensOf(me, owner)) throw new NotFound('User');
    ownerId = owner.id;
  }
  return ctx.db.accessToken.findMany({ where: { userId: ownerId }, orderBy: { createdAt: 'desc' } });
}

/** Revokes at once: the next request with the token gets 401. Revoking twice is harmless. */
export async function revokeToken(ctx: Ctx, id: string): Promise<AccessToken> {
  const token = await loadManageable(ctx, id);
  if (token.revokedAt) return token;
  const revoked = await ctx.db.accessToken.update({ where: { id }, data: { revokedAt: ctx.rt.clock.now() } });
  await announce(ctx, revoked, 'revoked');
  return revoked;
}

/** Undoes a revocation made less than 7 days ago. */
export async function reactivateToken(ctx: Ctx, id: string): Promise<AccessToken> {
  const token = await loadManageable(ctx, id);
  if (!token.revokedAt) throw new Conflict('Token is not revoked.', 'TOKEN_NOT_REVOKED');
  if (ctx.rt.clock.now().getTime() - token.revokedAt.getTime() > REACTIVATION_WINDOW_MS) {
    throw new Conflict(
      'Token was revoked more than 7 days ago and can no longer be reactivated.',
      'TOKEN_REACTIVATION_EXPIRED',
    );
  }
  const active = await ctx.db.accessToken.update({ where: { id }, data: { revokedAt: null } });
  await announce(ctx, active, 'reactivated');
  return active;
}

/** Issues a replacement token; the old one keeps working for 24 hours. */
export async function rotateToken(ctx: Ctx, id: string): Promise<MintedToken> {
  const old = await loadManageable(ctx, id);
  const me = requireUser(ctx);
  const now = ctx.rt.clock.now();
  if (!patIsUsable(old, now)) throw new Conflict('Only an active token can be rotated.', 'TOKEN_NOT_ACTIVE');
  if (old.rotatedToId || old.graceUntil) throw rotationInGrace('token', old.graceUntil);
  const remainingMs = old.expiresAt ? old.expiresAt.getTime() - old.createdAt.getTime() : null;
  const graceUntil = new Date(now.getTime() + ROTATION_GRACE_MS);
  const minted = await ctx.db.$transaction(async (tx) => {
    // The claim first: the row lock makes parallel rotations wait, and the re-checked condition lets one through.
    const { count } = await tx.accessToken.updateMany({
      where: { id, rotatedToId: null, graceUntil: null },
      data: { graceUntil },
    });
    if (count === 0) throw rotationInGrace('token', graceUntil);
    const m = await insertToken(tx, {
      userId: old.userId,
      createdById: me.userId,
      name: old.name,
      description: old.description,
      expiresAt: remainingMs === null ? null : new Date(now.getTime() + remainingMs),
      createdAt: now,
    });
    await tx.accessToken.update({ where: { id }, data: { rotatedToId: m.token.id } });
    return m;
  });
  await announce(ctx, minted.token, 'rotated');
  return minted;
}

/** Removes tokens revoked more than 7 days ago (all tenants; run by the maintenance job). */
export async function purgeRevokedTokens(prisma: PrismaClient, now: Date): Promise<number> {
  const { count } = await prisma.accessToken.deleteMany({
    where: { revokedAt: { lt: new Date(now.getTime() - REACTIVATION_WINDOW_MS) } },
  });
  return count;
}
