/**
 * The operator's overview, computed in SQL over the tenant's alerts and their timelines: live alerts by
 * severity and age (and how many nobody has acknowledged), the noisiest sources and rules of a recent
 * window, and the mean time to acknowledge (MTTA) and to resolve (MTTR) per week. Response times come from
 * the alerts' timelines: the first entry that moved an alert to `acknowledged` (or `resolved`) after it
 * opened. Weeks start on Monday 00:00 UTC; "now" is the service clock. Tenant-scoped by `tenantId` in
 * every statement (raw SQL bypasses the scoped client).
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { sqlTimestamp, utcFromSql } from '../db/timestamps.js';
import { invalid } from '../errors.js';

export const AGE_BUCKETS = ['under_1h', 'under_24h', 'under_7d', 'older'] as const;
export type AgeBucket = (typeof AGE_BUCKETS)[number];
type Severity = 'info' | 'warning' | 'critical';

export interface LiveAlertBucket {
  severity: Severity;
  age: AgeBucket;
  /** Alerts not resolved (open, acknowledged or snoozed). */
  live: number;
  /** Of those, still open: nobody acknowledged them. */
  unacknowledged: number;
}

export interface NoisySource {
  source: string;
  /** Alerts opened in the window. */
  alerts: number;
  /** Events those alerts counted. */
  events: number;
}

export interface NoisyRule {
  ruleId: string | null;
  ruleName: string;
  alerts: number;
  events: number;
}

export interface WeeklyResponseTimes {
  weekStart: Date;
  /** Alerts opened that week. */
  opened: number;
  /** Of those, acknowledged (ever), and the mean seconds from opening to the first acknowledgement. */
  acknowledged: number;
  mttaSeconds: number | null;
  /** Of those, resolved, and the mean seconds from opening to resolution. */
  resolved: number;
  mttrSeconds: number | null;
}

const DAY_MS = 86_400_000;

/** Live alerts by severity and age bucket (buckets with none are left out). */
export async function liveAlertBuckets(ctx: Ctx): Promise<LiveAlertBucket[]> {
  const me = requireUser(ctx);
  const now = sqlTimestamp(ctx.rt.clock.now());
  const rows = await ctx.rt.prisma.$queryRaw<Array<LiveAlertBucket>>`
    SELECT severity::text AS severity,
           CASE WHEN "createdAt" > ${now}::timestamp - interval '1 hour' THEN 'under_1h'
                WHEN "createdAt" > ${now}::timestamp - interval '24 hours' THEN 'under_24h'
                WHEN "createdAt" > ${now}::timestamp - interval '7 days' THEN 'under_7d'
                ELSE 'older' END AS age,
           count(*)::int AS live,
           (count(*) FILTER (WHERE status = 'open'))::int AS unacknowledged
      FROM "Alert"
     WHERE "tenantId" = ${me.tenantId} AND status <> 'resolved'
     GROUP BY 1, 2`;
  const sev: Record<string, number> = { critical: 0, warning: 1, info: 2 };
  return rows.sort(
    (a, b) => sev[a.severity]! - sev[b.severity]! || AGE_BUCKETS.indexOf(a.age) - AGE_BUCKETS.indexOf(b.age),
  );
}

function windowStart(ctx: Ctx, days: number): string {
  if (!Number.isInteger(days) || days < 1 || days > 90) throw invalid(['days'], 'must be a whole number from 1 to 90');
  return sqlTimestamp(new Date(ctx.rt.clock.now().getTime() - days * DAY_MS));
}

function checkFirst(first: number): number {
  if (!Number.isInteger(first) || first < 1 || first > 50) throw invalid(['first'], 'must be from 1 to 50');
  return first;
}

/** Sources whose alerts opened most in the last `days` days, most first. */
export async function noisiestSources(ctx: Ctx, days: number, first: number): Promise<NoisySource[]> {
  const me = requireUser(ctx);
  const since = windowStart(ctx, days);
  return ctx.rt.prisma.$queryRaw<NoisySource[]>`
    SELECT coalesce(source, '(none)') AS source, count(*)::int AS alerts, sum(count)::int AS events
      FROM "Alert"
     WHERE "tenantId" = ${me.tenantId} AND "createdAt" >= ${since}::timestamp
     GROUP BY 1 ORDER BY alerts DESC, events DESC, source LIMIT ${checkFirst(first)}`;
}

/** Rules whose alerts opened most in the last `days` days, most first (alerts without a rule as one row). */
export async function noisiestRules(ctx: Ctx, days: number, first: number): Promise<NoisyRule[]> {
  const me = requireUser(ctx);
  const since = windowStart(ctx, days);
  return ctx.rt.prisma.$queryRaw<NoisyRule[]>`
    SELECT a."ruleId" AS "ruleId", coalesce(r.name, '(no rule)') AS "ruleName",
           count(*)::int AS alerts, sum(a.count)::int AS events
      FROM "Alert" a LEFT JOIN "AlertRule" r ON r.id = a."ruleId"
     WHERE a."tenantId" = ${me.tenantId} AND a."createdAt" >= ${since}::timestamp
     GROUP BY 1, 2 ORDER BY alerts DESC, events DESC, "ruleName" LIMIT ${checkFirst(first)}`;
}

/**
 * MTTA and MTTR per week for the last `weeks` weeks (oldest first, every week present), by the week the
 * alert opened in; acknowledgement and resolution times come from the alert's timeline.
 */
export async function weeklyResponseTimes(ctx: Ctx, weeks: number): Promise<WeeklyResponseTimes[]> {
  const me = requireUser(ctx);
  if (!Number.isInteger(weeks) || weeks < 1 || weeks > 52) throw invalid(['weeks'], 'must be from 1 to 52');
  const now = sqlTimestamp(ctx.rt.clock.now());
  const rows = await ctx.rt.prisma.$queryRaw<
    Array<{ week: string; opened: number; acked: number; mtta: number | null; resolved: number; mttr: number | null }>
  >`
    WITH weeks AS (
      SELECT generate_series(date_trunc('week', ${now}::timestamp) - ((${weeks - 1})::int * interval '1 week'),
                             date_trunc('week', ${now}::timestamp), interval '1 week') AS week
    ), alerts AS (
      SELECT a.id, a."createdAt", date_trunc('week', a."createdAt") AS week,
             (SELECT min(e."createdAt") FROM "AlertTimelineEntry" e
               WHERE e."alertId" = a.id AND e."toStatus" = 'acknowledged') AS acked_at,
             (SELECT min(e."createdAt") FROM "AlertTimelineEntry" e
               WHERE e."alertId" = a.id AND e."toStatus" = 'resolved') AS resolved_at
        FROM "Alert" a
       WHERE a."tenantId" = ${me.tenantId}
         AND a."createdAt" >= date_trunc('week', ${now}::timestamp) - ((${weeks - 1})::int * interval '1 week')
    )
    SELECT w.week::text AS week,
           count(a.id)::int AS opened,
           count(a.acked_at)::int AS acked,
           avg(extract(epoch FROM a.acked_at - a."createdAt"))::float8 AS mtta,
           count(a.resolved_at)::int AS resolved,
           avg(extract(epoch FROM a.resolved_at - a."createdAt"))::float8 AS mttr
      FROM weeks w LEFT JOIN alerts a ON a.week = w.week
     GROUP BY w.week ORDER BY w.week`;
  return rows.map((r) => ({
    weekStart: utcFromSql(r.week),
    opened: r.opened,
    acknowledged: r.acked,
    mttaSeconds: r.mtta == null ? null : Math.round(r.mtta),
    resolved: r.resolved,
    mttrSeconds: r.mttr == null ? null : Math.round(r.mttr),
  }));
}
