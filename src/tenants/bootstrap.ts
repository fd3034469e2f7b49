/**
 * First start of an empty database: a demo tenant and admin, with the login printed once.
 */
import crypto from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';
import { Conflict } from '../errors.js';
import { createTenant } from './tenants.js';

export interface DemoLogin {
  tenant: string;
  email: string;
  password: string;
  ingestKey: string;
}

/** Creates the demo tenant when there is no tenant at all; returns its login, or null. */
export async function bootstrapDemoTenant(prisma: PrismaClient): Promise<DemoLogin | null> {
  if ((await prisma.tenant.count()) > 0) return null;
  const password = crypto.randomBytes(12).toString('base64url');
  try {
    const created = await createTenant(prisma, {
      name: 'demo',
      adminEmail: 'admin@demo.local',
      adminPassword: password,
    });
    return { tenant: created.tenant.name, email: created.admin.email, password, ingestKey: created.ingestKey };
  } catch (err) {
    if (err instanceof Conflict) return null; // another node bootstrapped first
    throw err;
  }
}
