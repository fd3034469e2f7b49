/**
 * Federation, hub side. An admin mints a single-use invite (cleartext once, SHA-256 at rest, expires —
 * default 24 h); a member installation exchanges it (POST /clusters/join) for a cluster credential
 * (`scc_…`, hashed at rest). With that credential the member sends heartbeats (version, open alerts by
 * severity, device count) and forwards its critical alerts, which land on the hub's timeline as
 * `cluster.alert` events (so the hub's rules can act on them). A revoked cluster's next call is a 401.
 * Status: `connected` while heartbeats arrive within CLUSTER_STALE_AFTER_MS, else `stale`; `revoked`.
 */
import type { Request } from 'express';
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import type { Runtime } from '../runtime.js';
import type { Principal } from '../principal.js';
import type { Cluster, Event } from '../generated/prisma/client.js';
import { NotFound, Unauthenticated, ValidationFailed, invalid, type FieldProblem } from '../errors.js';
import { randomSecret, tokenHash } from '../secrets.js';
import { consumeInboundRate } from '../events/rate-limit.js';
import { SEVERITIES } from '../events/envelope.js';
import { announceTimelineEvents } from '../events/announce.js';

export const INVITE_PREFIX = 'sci_';
export const CLUSTER_CREDENTIAL_PREFIX = 'scc_';
export const INVITE_DEFAULT_HOURS = 24;
const INVITE_MAX_HOURS = 24 * 30;
const NAME_MAX = 100;
const FORWARD_MAX = 100;

export type ClusterStatus = 'connected' | 'stale' | 'revoked';

export function clusterStatus(
  rt: Runtime,
  c: Pick<Cluster, 'revokedAt' | 'lastSeenAt'>,
  now = rt.clock.now().getTime(),
): ClusterStatus {
  if (c.revokedAt) return 'revoked';
  return c.lastSeenAt && now - c.lastSeenAt.getTime() <= rt.config.integrations.clusterStaleAfterMs
    ? 'connected'
    : 'stale';
}

/** One shell word: single-quoted, each `'` written as `'\''`, so nothing in it is expanded or run. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * A hub URL as members are told it: http(s), a host (name, IPv4 or bracketed IPv6), an optional port and
 * path, and none of the characters a shell or a URL parser would read differently (`$ ( ) ; & | \` ' " < >`,
 * spaces, a query, credentials).
 */
const HUB_URL =
  /^https?:\/\/(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?(?:\/[A-Za-z0-9._~%\/-]{0,1900})?$/;

/** Why `hubUrl` cannot be shown in a join command, or null. */
export function hubUrlProblem(hubUrl: string): string | null {
  return HUB_URL.test(hubUrl)
    ? null
    : 'must be an http(s) URL of scheme, host, optional port and path (letters, digits, . _ ~ % / -), with no shell metacharacters, spaces, query or credentials';
}

/** The command a member's operator runs to join with this invite; every value is shell-quoted. */
export function joinCommand(hubUrl: string, token: string): string {
  return `npm run --silent ops -- cluster join --hub ${shellQuote(hubUrl)} --invite ${shellQuote(token)} --name <name>`;
}

export interface MintedInvite {
  id: string;
  token: string;
  expiresAt: Date;
  command: string;
}

/** Mints a single-use invite for the caller's tenant (admin scope on the field). */
export async function createClusterInvite(
  ctx: Ctx,
  input: { expiresInHours?: number | null; hubUrl?: string | null },
  requestOrigin?: string | null,
): Promise<MintedInvite> {
  const me = requireUser(ctx);
  const hours = input.expiresInHours ?? INVITE_DEFAULT_HOURS;
  if (!Number.isInteger(hours) || hours < 1 || hours > INVITE_MAX_HOURS)
    throw invalid(['expiresInHours'], `must be a whole number of hours from 1 to ${INVITE_MAX_HOURS}`);
  if (input.hubUrl != null) {
    const problem = hubUrlProblem(input.hubUrl);
    if (problem) throw invalid(['hubUrl'], problem);
  }
  const token = randomSecret(INVITE_PREFIX, 32);
  const row = await ctx.db.clusterInvite.create({
    data: {
      tokenHash: tokenHash(token),
      tokenPrefix: token.slice(0, 10),
      createdById: me.userId,
      expiresAt: new Date(ctx.rt.clock.now().getTime() + hours * 3600_000),
    } as never,
  });
  // Where members reach the hub: as given, else PUBLIC_BASE_URL, else the request's origin.
  const hub = (input.hubUrl ?? ctx.rt.config.publicBaseUrl ?? requestOrigin ?? '<hub url>').replace(/\/+$/, '');
  return { id: row.id, token, expiresAt: row.expiresAt, command: joinCommand(hub, token) };
}

export interface JoinRequest {
  invite?: unknown;
  name?: unknown;
  url?: unknown;
  version?: unknown;
}

function str(v: unknown, loc: string[], max: number, problems: FieldProblem[], required = false): string | null {
  if (v === undefined || v === null || v === '') {
    if (required) problems.push({ loc, msg: 'is required' });
    return null;
  }
  if (typeof v !== 'string' || v.length > max) {
    problems.push({ loc, msg: `must be a string of at most ${max} characters` });
    return null;
  }
  return v;
}

/**
 * Exchanges an invite for a cluster credential (returned this once). An unknown, used or expired
 * invite is a 401; the invite is consumed atomically, so two joins with one invite cannot both win.
 */
export async function joinWithInvite(
  rt: Runtime,
  body: JoinRequest,
): Promise<{ cluster: Cluster; credential: string }> {
  const problems: FieldProblem[] = [];
  const invite = str(body.invite, ['invite'], 200, problems, true);
  const name = str(body.name, ['name'], NAME_MAX, problems, true)?.trim();
  const url = str(body.url, ['url'], 2048, problems);
  const version = str(body.version, ['version'], 100, problems);
  if (problems.length) throw new ValidationFailed(problems);
  if (!name) throw invalid(['name'], 'must not be blank');
  const now = rt.clock.now();
  const credential = randomSecret(CLUSTER_CREDENTIAL_PREFIX, 32);
  // Credential resolution by hash: the root client.
  const cluster = await rt.prisma.$transaction(async (tx) => {
    const row = await tx.clusterInvite.findUnique({ where: { tokenHash: tokenHash(invite!) } });
    if (!row) throw new Unauthenticated('Unknown cluster invite.');
    const taken = await tx.clusterInvite.updateMany({
      where: { id: row.id, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (taken.count === 0)
      throw new Unauthenticated(
        row.usedAt
          ? 'This cluster invite was already used; ask the hub admin for a new one.'
          : 'This cluster invite has expired; ask the hub admin for a new one.',
      );
    const c = await tx.cluster.create({
      data: {
        tenantId: row.tenantId,
        name,
        url,
        version,
        credentialHash: tokenHash(credential),
        credentialPrefix: credential.slice(0, 10),
        lastSeenAt: now,
      },
    });
    await tx.clusterInvite.update({ where: { id: row.id }, data: { clusterId: c.id } });
    return c;
  });
  return { cluster, credential };
}

function bearer(req: Request): string | null {
  const h = req.headers.authorization;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(Array.isArray(h) ? (h[0] ?? '') : (h ?? ''));
  return m ? m[1] : null;
}

const REVOKED = 'This cluster was revoked by the hub.';

/** Route authenticator for a member's calls: its cluster credential, 401 once revoked. */
export async function clusterCredentialAuth(rt: Runtime, req: Request): Promise<Principal> {
  const token = bearer(req);
  if (!token) throw new Unauthenticated('Send Authorization: Bearer <cluster credential>.');
  const c = await rt.prisma.cluster.findUnique({
    where: { credentialHash: tokenHash(token) },
    select: { id: true, tenantId: true, revokedAt: true },
  });
  if (!c) throw new Unauthenticated('Invalid cluster credential.');
  if (c.revokedAt) throw new Unauthenticated(REVOKED);
  await consumeInboundRate(rt, `cluster:${c.id}`);
  // Acts for the hub tenant like a signed webhook (credential kind `webhook`, id = the cluster's).
  return {
    tenantId: c.tenantId,
    userId: null,
    email: null,
    role: null,
    userKind: null,
    credential: { kind: 'webhook', id: c.id },
  };
}

async function callerCluster(ctx: Ctx): Promise<Cluster> {
  const id = ctx.principal && !ctx.principal.userId ? ctx.principal.credential.id : null;
  const c = id ? await ctx.db.cluster.findUnique({ where: { id } }) : null;
  if (!c) throw new Unauthenticated('Invalid cluster credential.');
  // Revoked between the credential check and here (a call in flight while an admin revokes): the same
  // answer as clusterCredentialAuth gives, so the member records why.
  if (c.revokedAt) throw new Unauthenticated(REVOKED);
  return c;
}

function count(v: unknown): number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0;
}

/** Records a heartbeat: version, open alerts by severity, device count. */
export async function recordHeartbeat(ctx: Ctx, body: Record<string, unknown>): Promise<Cluster> {
  const c = await callerCluster(ctx);
  const problems: FieldProblem[] = [];
  const version = str(body.version, ['version'], 100, problems);
  const open = (body.open_alerts ?? {}) as Record<string, unknown>;
  if (typeof open !== 'object' || Array.isArray(open))
    problems.push({ loc: ['open_alerts'], msg: 'must be an object of counts by severity' });
  if (body.device_count !== undefined && count(body.device_count) !== body.device_count)
    problems.push({ loc: ['device_count'], msg: 'must be a whole number ≥ 0' });
  if (problems.length) throw new ValidationFailed(problems);
  const summary = {
    open_alerts: Object.fromEntries(SEVERITIES.map((s) => [s, count(open[s])])),
    device_count: count(body.device_count),
  };
  return ctx.db.cluster.update({
    where: { id: c.id },
    data: { lastSeenAt: ctx.rt.clock.now(), version: version ?? c.version, summary },
  });
}

export interface ForwardedAlert {
  id: string;
  summary: string;
  severity: string;
  status: string;
  first_seen_at?: string;
}

/** A member's critical alerts, recorded on the hub's timeline as `cluster.alert` events (once per alert). */
export async function recordForwardedAlerts(ctx: Ctx, body: { alerts?: unknown }): Promise<{ events: number }> {
  const c = await callerCluster(ctx);
  if (!Array.isArray(body.alerts) || body.alerts.length > FORWARD_MAX)
    throw invalid(['alerts'], `must be an array of at most ${FORWARD_MAX} alerts`);
  const problems: FieldProblem[] = [];
  const alerts = body.alerts as ForwardedAlert[];
  alerts.forEach((a, i) => {
    if (typeof a?.id !== 'string' || a.id.length > 100)
      problems.push({ loc: [`alerts[${i}]`, 'id'], msg: 'must be a string of at most 100 characters' });
    if (typeof a?.summary !== 'string') problems.push({ loc: [`alerts[${i}]`, 'summary'], msg: 'must be a string' });
    if (!(SEVERITIES as readonly string[]).includes(a?.severity))
      problems.push({ loc: [`alerts[${i}]`, 'severity'], msg: `must be one of ${SEVERITIES.join(', ')}` });
  });
  if (problems.length) throw new ValidationFailed(problems);
  const events: Event[] = [];
  await ctx.rt.prisma.$transaction(async (tx) => {
    // At most one event per remote alert, even when a member resends (a lost answer, two heartbeats at
    // once): forwards of one cluster are serialised by a transaction-scoped advisory lock.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${'cluster-forward:' + c.id}))`;
    const already = await tx.event.findMany({
      where: {
        tenantId: c.tenantId,
        type: 'cluster.alert',
        source: `cluster/${c.name}`.slice(0, 200),
        OR: alerts.map((a) => ({ labels: { path: ['remote_alert_id'], equals: a.id } })),
      },
      select: { labels: true },
    });
    const seen = new Set(already.map((e) => (e.labels as Record<string, string>).remote_alert_id));
    for (const a of alerts) {
      if (seen.has(a.id)) continue;
      seen.add(a.id);
      events.push(
        await tx.event.create({
          data: {
            tenantId: c.tenantId,
            receivedAt: ctx.rt.clock.now(),
            type: 'cluster.alert',
            module: 'clusters',
            source: `cluster/${c.name}`.slice(0, 200),
            summary: `[${c.name}] ${a.summary}`.slice(0, 1000),
            severity: a.severity as 'critical',
            labels: { cluster_id: c.id, cluster: c.name.slice(0, 500), remote_alert_id: a.id },
            payload: {
              cluster_id: c.id,
              cluster: c.name,
              alert: {
                id: a.id,
                summary: a.summary,
                severity: a.severity,
                status: typeof a.status === 'string' ? a.status : null,
                first_seen_at: a.first_seen_at ?? null,
              },
            },
            receivedVia: 'webhook',
          },
        }),
      );
    }
    await tx.cluster.update({ where: { id: c.id }, data: { lastSeenAt: ctx.rt.clock.now() } });
  });
  await announceTimelineEvents(ctx.rt, events);
  return { events: events.length };
}

export function listClusters(ctx: Ctx): Promise<Cluster[]> {
  requireUser(ctx);
  return ctx.db.cluster.findMany({ orderBy: { createdAt: 'asc' } });
}

export async function getCluster(ctx: Ctx, id: string): Promise<Cluster> {
  requireUser(ctx);
  const c = await ctx.db.cluster.findUnique({ where: { id } });
  if (!c) throw new NotFound('Cluster');
  return c;
}

/** Revokes a cluster: its credential stops working at once (idempotent). */
export async function revokeCluster(ctx: Ctx, id: string): Promise<Cluster> {
  const c = await getCluster(ctx, id);
  if (c.revokedAt) return c;
  return ctx.db.cluster.update({ where: { id: c.id }, data: { revokedAt: ctx.rt.clock.now() } });
}
