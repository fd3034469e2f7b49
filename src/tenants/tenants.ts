/**
 * Tenants are created by operators (CLI, bootstrap), never through the tenant-facing API.
 */
import type { PrismaClient, Tenant, User } from '../generated/prisma/client.js';
import { Conflict, ValidationFailed } from '../errors.js';
import { isUniqueViolation } from '../db/errors.js';
import { insertUser } from '../users/users.js';
import { createIngestKey } from './ingest-keys.js';
import type { Prisma } from '../generated/prisma/client.js';

export interface CreatedTenant {
  tenant: Tenant;
  admin: User;
  ingestKey: string;
}

/**
 * Creates a tenant with its first admin and ingest key, atomically. `seed` runs in the same
 * transaction with the new tenant's id (the CLI enables starter rules with it, src/rules/suggestions.ts).
 */
export async function createTenant(
  prisma: PrismaClient,
  input: { name: string; adminEmail: string; adminPassword: string },
  seed?: (tx: Prisma.TransactionClient, tenantId: string) => Promise<void>,
): Promise<CreatedTenant> {
  const name = input.name?.trim();
  if (!name) throw new ValidationFailed([{ loc: ['name'], msg: 'is required' }]);
  try {
    return await prisma.$transaction(
      async (tx) => {
        const tenant = await tx.tenant.create({ data: { name } });
        const admin = await insertUser(tx, tenant.id, {
          email: input.adminEmail,
          password: input.adminPassword,
          role: 'admin',
          kind: 'human',
        });
        const key = await createIngestKey(tx, tenant.id);
        if (seed) await seed(tx, tenant.id);
        return { tenant, admin, ingestKey: key.cleartext };
        // Hashing the admin's password inside the transaction takes CPU time: on a busy machine Prisma's
        // 5 s default expired the first start's demo bootstrap (and tests' tenants).
      },
      { timeout: 30_000, maxWait: 30_000 },
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw new Conflict(`A tenant named "${name}" already exists.`, 'ALREADY_EXISTS');
    throw err;
  }
}

/** Finds a tenant by name or id. */
export async function findTenant(prisma: PrismaClient, nameOrId: string): Promise<Tenant | null> {
  return prisma.tenant.findFirst({ where: { OR: [{ name: nameOrId }, { id: nameOrId }] } });
}
