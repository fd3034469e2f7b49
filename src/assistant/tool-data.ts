/**
 * What the assistant's tools read and how they show it: events and alerts as data (payloads clipped,
 * the one alert wire shape), the searches behind the read tools, ranked candidates, and the argument
 * readers the tools share. Everything runs through `ctx.db`, so it sees what the asking user sees.
 */
import type { Ctx } from '../context.js';
import { invalid } from '../errors.js';
import type { Alert, Event, Prisma } from '../generated/prisma/client.js';
import { globMatches } from '../events/filter.js';
import type { RankedCandidate, SimilarAlert, ToolOutput } from './types.js';
import { alertWire } from '../alerts/wire.js';
import { causeOf } from './candidates.js';

const MAX_TEXT = 2000;

export function clip(value: unknown, max = MAX_TEXT): unknown {
  const s = JSON.stringify(value ?? null);
  return s.length <= max ? value : { truncated: true, json_prefix: s.slice(0, max) };
}

/** An event as tools show it: its fields as data, payload clipped. */
export function eventData(e: Event): Record<string, unknown> {
  return {
    id: e.id,
    type: e.type,
    source: e.source,
    module: e.module,
    severity: e.severity,
    summary: e.summary,
    labels: e.labels,
    payload: clip(e.payload),
    device_id: e.deviceId,
    received_at: e.receivedAt.toISOString(),
  };
}

/** An alert as the model sees it: the one wire shape (src/alerts/wire.ts). */
export function alertData(a: Alert): Record<string, unknown> {
  return { ...alertWire(a) };
}

export function str(args: Record<string, unknown>, name: string, required = false): string | undefined {
  const v = args[name];
  if (v === undefined || v === null || v === '') {
    if (required) throw invalid(['args', name], 'is required');
    return undefined;
  }
  if (typeof v !== 'string' || v.length > 500)
    throw invalid(['args', name], 'must be a string of at most 500 characters');
  return v;
}

export function num(args: Record<string, unknown>, name: string, fallback: number, min: number, max: number): number {
  const v = args[name];
  if (v === undefined || v === null) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max)
    throw invalid(['args', name], `must be an integer from ${min} to ${max}`);
  return n;
}

export const SEVERITIES = ['info', 'warning', 'critical'] as const;
export function severity(args: Record<string, unknown>): (typeof SEVERITIES)[number] | undefined {
  const v = str(args, 'severity');
  if (v === undefined) return undefined;
  if (!(SEVERITIES as readonly string[]).includes(v))
    throw invalid(['args', 'severity'], 'must be info, warning or critical');
  return v as (typeof SEVERITIES)[number];
}

/** Events of the tenant, newest first, by type glob, source, severity and time range. */
export async function searchEvents(
  ctx: Ctx,
  f: {
    type?: string;
    source?: string;
    severity?: string;
    deviceId?: string;
    after?: Date;
    before?: Date;
    limit: number;
  },
): Promise<Event[]> {
  const where: Prisma.EventWhereInput = {
    ...(f.source ? { source: f.source } : {}),
    ...(f.severity ? { severity: f.severity as 'info' } : {}),
    ...(f.deviceId ? { deviceId: f.deviceId } : {}),
    receivedAt: { ...(f.after ? { gte: f.after } : {}), ...(f.before ? { lte: f.before } : {}) },
  };
  const glob = f.type && f.type.includes('*') ? f.type : undefined;
  if (f.type && !glob) where.type = f.type;
  const rows = await ctx.db.event.findMany({
    where,
    orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }],
    take: glob ? 500 : f.limit,
  });
  return (glob ? rows.filter((e) => globMatches(glob, e.type)) : rows).slice(0, f.limit);
}

/** Other alerts with the same rule, source or dedup key, newest first, and how each ended. */
export async function similarAlerts(ctx: Ctx, alert: Alert, limit: number): Promise<SimilarAlert[]> {
  const or: Prisma.AlertWhereInput[] = [{ dedupKey: alert.dedupKey }];
  if (alert.ruleId) or.push({ ruleId: alert.ruleId });
  if (alert.source) or.push({ source: alert.source });
  const rows = await ctx.db.alert.findMany({
    where: {
      id: { not: alert.id },
      OR: or,
      firstSeenAt: { gte: new Date(alert.firstSeenAt.getTime() - 30 * 86_400_000) },
    },
    orderBy: { firstSeenAt: 'desc' },
    take: limit,
    include: {
      timeline: {
        where: { action: 'resolved' },
        take: 1,
        orderBy: { createdAt: 'desc' },
        include: { actor: { select: { email: true } } },
      },
    },
  });
  return rows.map((a) => ({
    alert: a,
    resolvedBy: a.timeline[0]?.actor?.email ?? (a.status === 'resolved' ? 'the service' : null),
    resolveNote: a.timeline[0]?.note ?? null,
    minutesToResolve: a.resolvedAt ? Math.round((a.resolvedAt.getTime() - a.firstSeenAt.getTime()) / 60_000) : null,
  }));
}

export const ids = (...groups: Array<Array<{ id: string } | null | undefined>>) =>
  groups
    .flat()
    .filter((x): x is { id: string } => !!x)
    .map((x) => x.id);

/** The ranked candidates as tools show them: related first with relations, then unrelated changes. */
export function rankedData(ranked: RankedCandidate[]): ToolOutput {
  const related = ranked.filter((c) => c.score > 0).slice(0, 20);
  const unrelated = ranked.filter((c) => c.score === 0 && c.isChange).sort((x, y) => x.minutesBefore - y.minutesBefore);
  const row = (c: RankedCandidate) => ({
    ...eventData(c.event),
    minutes_before_alert: Math.round(c.minutesBefore),
    is_change: c.isChange,
  });
  return {
    data: {
      related: related.map((c) => ({
        ...row(c),
        score: c.score,
        confidence: c.confidence,
        relations: c.relations.map((r) => ({ kind: r.kind, detail: r.detail })),
        stated_as: causeOf(c).cause,
      })),
      unrelated_change_count: unrelated.length,
      unrelated_changes: unrelated.slice(0, 10).map(row),
    },
    ids: [...related, ...unrelated.slice(0, 10)].flatMap((c) => c.evidence.map((e) => e.id)),
  };
}
