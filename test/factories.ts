/**
 * Factories that create real rows through the service's own functions.
 */
import crypto from 'node:crypto';
import type { Runtime } from '../src/runtime.js';
import { createTenant } from '../src/tenants/tenants.js';
import { insertUser, type CreateUserInput } from '../src/users/users.js';
import { createCtx } from '../src/context.js';
import { mintToken } from '../src/auth/tokens.js';
import type { Principal } from '../src/auth/principal.js';
import type { User } from '../src/generated/prisma/client.js';

export interface BuiltTenant {
  tenantId: string;
  name: string;
  admin: User;
  adminPassword: string;
  adminToken: string;
  ingestKey: string;
}

function uniq(): string {
  return crypto.randomBytes(4).toString('hex');
}

/** A tenant with an admin (password and PAT) and an ingest key. */
export async function buildTenant(rt: Runtime, overrides: { name?: string } = {}): Promise<BuiltTenant> {
  const adminPassword = 'pw-' + crypto.randomBytes(8).toString('hex');
  const name = overrides.name ?? `tenant-${uniq()}`;
  const created = await createTenant(rt.prisma, { name, adminEmail: `admin-${uniq()}@${name}.test`, adminPassword });
  const adminToken = await buildToken(rt, created.admin);
  return { tenantId: created.tenant.id, name, admin: created.admin, adminPassword, adminToken, ingestKey: created.ingestKey };
}

/** A user in the tenant (member human by default) with a password. */
export async function buildUser(rt: Runtime, tenantId: string, overrides: Partial<CreateUserInput> = {}): Promise<User & { password?: string }> {
  const kind = overrides.kind ?? 'human';
  const password = kind === 'human' ? (overrides.password ?? 'pw-' + crypto.randomBytes(8).toString('hex')) : undefined;
  const user = await insertUser(rt.prisma, tenantId, { email: `user-${uniq()}@example.test`, role: 'member', kind, ...overrides, password });
  return { ...user, password };
}

/** The principal a PAT of `user` resolves to. */
export function principalOf(user: User, tokenId = 'factory'): Principal {
  return { tenantId: user.tenantId, userId: user.id, email: user.email, role: user.role, userKind: user.kind, credential: { kind: 'pat', id: tokenId } };
}

/** A PAT for the user, minted through the token service; returns the cleartext. */
export async function buildToken(rt: Runtime, user: User, opts: { name?: string; expiresInDays?: number | null } = {}): Promise<string> {
  const ctx = createCtx(rt, principalOf(user), 'factory');
  const minted = await mintToken(ctx, { name: opts.name ?? `tok-${uniq()}`, expiresInDays: opts.expiresInDays ?? null });
  return minted.cleartext;
}
