/**
 * Factories that create real rows through the service's own functions.
 */
import crypto from 'node:crypto';
import type { Runtime } from '../src/runtime.js';
import { createTenant } from '../src/tenants/tenants.js';
import { insertUser, type CreateUserInput } from '../src/users/users.js';
import { createCtx } from '../src/context.js';
import { mintToken } from '../src/auth/tokens.js';
import type { Principal } from '../src/principal.js';
import type { CredentialOrigin, User } from '../src/generated/prisma/client.js';

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
  return {
    tenantId: created.tenant.id,
    name,
    admin: created.admin,
    adminPassword,
    adminToken,
    ingestKey: created.ingestKey,
  };
}

/**
 * A user in the tenant (member human by default) with a password. A person's password counts as one they
 * chose themselves (`self_password`, as after an invitation; test/accounts-*.test.ts drive that path), so
 * they may approve proposals; pass `credentialOrigin: 'admin_set'` for one an admin set.
 */
export async function buildUser(
  rt: Runtime,
  tenantId: string,
  overrides: Partial<CreateUserInput> & { credentialOrigin?: CredentialOrigin } = {},
): Promise<User & { password?: string }> {
  const kind = overrides.kind ?? 'human';
  const password = kind === 'human' ? (overrides.password ?? 'pw-' + crypto.randomBytes(8).toString('hex')) : undefined;
  const { credentialOrigin, ...input } = overrides;
  const user = await insertUser(
    rt.prisma,
    tenantId,
    { email: `user-${uniq()}@example.test`, role: 'member', kind, ...input, password },
    { credentialOrigin: credentialOrigin ?? (kind === 'human' ? 'self_password' : 'admin_set') },
  );
  return { ...user, password };
}

/** The principal a PAT of `user` resolves to. */
export function principalOf(user: User, tokenId = 'factory'): Principal {
  return {
    tenantId: user.tenantId,
    userId: user.id,
    email: user.email,
    role: user.role,
    userKind: user.kind,
    credential: { kind: 'pat', id: tokenId },
  };
}

/** A PAT for the user, minted through the token service; returns the cleartext. */
export async function buildToken(
  rt: Runtime,
  user: User,
  opts: { name?: string; expiresInDays?: number | null } = {},
): Promise<string> {
  const ctx = createCtx(rt, principalOf(user), 'factory');
  const minted = await mintToken(ctx, {
    name: opts.name ?? `tok-${uniq()}`,
    expiresInDays: opts.expiresInDays ?? null,
  });
  return minted.cleartext;
}

/**
 * An event committed the way ingest commits it (evaluatedAt null), then (unless `enqueue: false`,
 * which simulates a lost enqueue) announced with an `evaluate` job for its id.
 */
export async function buildEvent(
  rt: Runtime,
  tenantId: string,
  overrides: Partial<{
    type: string;
    module: string | null;
    source: string;
    summary: string | null;
    severity: 'info' | 'warning' | 'critical';
    labels: Record<string, string>;
    payload: Record<string, unknown>;
    deviceId: string | null;
    enqueue: boolean;
  }> = {},
): Promise<{ id: string }> {
  const { enqueue = true, ...fields } = overrides;
  const ev = await rt.prisma.event.create({
    // Stamped from the service's clock, as ingest does: its sweeps compare receivedAt with that clock.
    data: {
      tenantId,
      type: 'test.happened',
      source: 'factory',
      receivedVia: 'ingest',
      receivedAt: rt.clock.now(),
      ...fields,
      payload: (fields.payload ?? {}) as object,
    },
    select: { id: true },
  });
  if (enqueue) await rt.queues.add('evaluate', { eventIds: [ev.id] });
  return ev;
}

export interface DashboardData {
  deviceIds: string[];
  alertIds: string[];
  /** Per device: ids of its open (proposed/approved) proposals. */
  openProposalsByDevice: Map<string, string[]>;
}

/** The dashboard's nested query (alerts → latest events, device → open proposals → proposer), shared by the statement-count test and bench:graph. */
export const DASHBOARD_QUERY = `query Dashboard($first: Int!) {
  alerts(first: $first) {
    edges { node {
      id summary severity status
      events(limit: 5) { id type summary receivedAt }
      device {
        id name site
        proposals(open: true, first: 10) { edges { node { id title status proposer { email } } } }
      }
    } }
  }
}`;

/**
 * The dashboard's graph, written directly (bulk inserts, no rule evaluation): `devices` devices, each
 * with two open proposals and one denied by `proposerId`; `alerts` alerts spread over the devices,
 * each with `eventsPerAlert` attached events one second apart.
 */
export async function buildDashboardData(
  rt: Runtime,
  tenantId: string,
  proposerId: string,
  opts: { devices?: number; alerts?: number; eventsPerAlert?: number } = {},
): Promise<DashboardData> {
  const { devices = 10, alerts = 50, eventsPerAlert = 6 } = opts;
  const tag = uniq();
  const deviceRows = await rt.prisma.device.createManyAndReturn({
    data: Array.from({ length: devices }, (_, i) => ({
      tenantId,
      name: `dash-${tag}-${i}`,
      role: 'edge',
      site: `site-${i % 3}`,
    })),
    select: { id: true },
  });
  const deviceIds = deviceRows.map((d) => d.id);
  const proposals = await rt.prisma.proposal.createManyAndReturn({
    data: deviceIds.flatMap((deviceId) =>
      (['proposed', 'approved', 'denied'] as const).map((status) => ({
        tenantId,
        deviceId,
        status,
        title: `${status} change`,
        kind: 'config_change',
        proposedIntent: 'x\n',
        proposerId,
      })),
    ),
    select: { id: true, deviceId: true, status: true },
  });
  const openProposalsByDevice = new Map<string, string[]>();
  for (const p of proposals)
    if (p.status !== 'denied')
      openProposalsByDevice.set(p.deviceId!, [...(openProposalsByDevice.get(p.deviceId!) ?? []), p.id]);
  const alertRows = await rt.prisma.alert.createManyAndReturn({
    data: Array.from({ length: alerts }, (_, i) => {
      const dedupKey = `dash-${tag}-${i}`;
      return {
        tenantId,
        severity: 'critical' as const,
        summary: `Alert ${i}`,
        dedupKey,
        liveDedupKey: dedupKey,
        deviceId: deviceIds[i % deviceIds.length],
      };
    }),
    select: { id: true, deviceId: true },
  });
  const now = rt.clock.now().getTime();
  const events = await rt.prisma.event.createManyAndReturn({
    data: alertRows.flatMap((a, i) =>
      Array.from({ length: eventsPerAlert }, (_, j) => ({
        tenantId,
        type: 'link.down',
        source: 'factory',
        summary: `alert ${i} event ${j}`,
        receivedVia: 'ingest' as const,
        deviceId: a.deviceId,
        receivedAt: new Date(now - j * 1000),
        evaluatedAt: new Date(now),
      })),
    ),
    select: { id: true },
  });
  await rt.prisma.alertEvent.createMany({
    data: events.map((e, k) => ({ alertId: alertRows[Math.floor(k / eventsPerAlert)].id, eventId: e.id })),
  });
  return { deviceIds, alertIds: alertRows.map((a) => a.id), openProposalsByDevice };
}
