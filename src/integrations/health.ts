/**
 * Health that says why: `{status, checks: {config, reachable, freshness, errors}, reason, checked_at}`.
 * - config: the effective config is valid (problems listed per field);
 * - reachable: the provider's probe answered (latency), or null when the provider has none / no URL;
 * - freshness: the last event is within the expected interval the tenant set (null when turned off);
 * - errors: pull/push errors since the last success, with the last message (recent = the last hour).
 * Status: `failing` when the config is invalid (it cannot work at all), `degraded` when any other
 * check fails (the reason lists them), `unknown` before anything could be observed, else `healthy`.
 * Each check is stored in a short history; a change of status is a timeline event
 * (`integration.degraded` / `integration.recovered`) so alert rules can act on it, and is published
 * on `integrationHealthChanged`.
 */
import type { Runtime } from '../runtime.js';
import type { Integration, IntegrationHealthStatus } from '../generated/prisma/client.js';
import { getProvider } from './registry.js';
import { configProblems, effectiveConfigOf, integrationUrlPolicy } from './integrations.js';
import { announceTimelineEvents } from '../events/announce.js';
import type { FieldProblem } from '../errors.js';

export const HISTORY_KEPT = 50;
const RECENT_ERROR_MS = 3600_000;

export interface HealthChecks {
  config: { ok: boolean; problems: Array<{ field: string; message: string }> };
  reachable: { ok: boolean | null; latency_ms: number | null; message: string };
  freshness: {
    ok: boolean | null;
    expected_seconds: number | null;
    last_event_at: string | null;
    age_seconds: number | null;
    message: string;
  };
  errors: { ok: boolean; count: number; last_error: string | null; last_error_at: string | null };
}

export interface HealthReport {
  status: IntegrationHealthStatus;
  checks: HealthChecks;
  reason: string | null;
  checkedAt: Date;
}

function fieldOf(p: FieldProblem): string {
  return p.loc.slice(1).join('.');
}

/** Runs the checks (the probe calls the remote) without storing anything. */
export async function computeHealth(rt: Runtime, integ: Integration, now = rt.clock.now()): Promise<HealthReport> {
  const p = getProvider(integ.provider);
  const effective = await effectiveConfigOf(rt, integ);
  const problems = configProblems(p, effective, ['config']);
  const config = { ok: problems.length === 0, problems: problems.map((x) => ({ field: fieldOf(x), message: x.msg })) };

  let reachable: HealthChecks['reachable'] = {
    ok: null,
    latency_ms: null,
    message: p.probe ? 'no URL configured; push only' : `${p.name} integrations have no probe`,
  };
  const hasUrl = !('url' in p.configSchema.properties) || !!effective.url;
  if (p.probe && hasUrl && config.ok) {
    const r = await p.probe({
      rt,
      config: effective,
      policy: integrationUrlPolicy(rt),
      timeoutMs: rt.config.integrations.probeTimeoutMs,
    });
    reachable = { ok: r.ok, latency_ms: r.latencyMs, message: r.ok ? r.message : `unreachable: ${r.message}` };
  }

  const last = integ.lastEventAt;
  const age = last ? Math.max(0, Math.round((now.getTime() - last.getTime()) / 1000)) : null;
  let freshness: HealthChecks['freshness'];
  if (integ.freshnessSeconds === null)
    freshness = {
      ok: null,
      expected_seconds: null,
      last_event_at: last?.toISOString() ?? null,
      age_seconds: age,
      message: 'freshness check turned off',
    };
  else if (age === null) {
    const sinceCreated = (now.getTime() - integ.createdAt.getTime()) / 1000;
    const ok = sinceCreated <= integ.freshnessSeconds;
    freshness = {
      ok,
      expected_seconds: integ.freshnessSeconds,
      last_event_at: null,
      age_seconds: null,
      message: ok ? 'no event yet' : `no event received in the ${integ.freshnessSeconds} s expected`,
    };
  } else {
    const ok = age <= integ.freshnessSeconds;
    freshness = {
      ok,
      expected_seconds: integ.freshnessSeconds,
      last_event_at: last!.toISOString(),
      age_seconds: age,
      message: ok
        ? `last event ${age} s ago`
        : `stale: last event ${age} s ago, expected every ${integ.freshnessSeconds} s`,
    };
  }

  const recent =
    integ.errorCount > 0 && !!integ.lastErrorAt && now.getTime() - integ.lastErrorAt.getTime() <= RECENT_ERROR_MS;
  const errors = {
    ok: !recent,
    count: integ.errorCount,
    last_error: integ.lastError,
    last_error_at: integ.lastErrorAt?.toISOString() ?? null,
  };

  const reasons: string[] = [];
  if (!config.ok) reasons.push(`config: ${config.problems.map((x) => `${x.field} ${x.message}`).join('; ')}`);
  if (reachable.ok === false) reasons.push(reachable.message);
  if (freshness.ok === false) reasons.push(freshness.message);
  if (!errors.ok) reasons.push(`${errors.count} error(s), last: ${errors.last_error}`);
  let status: IntegrationHealthStatus;
  if (!config.ok) status = 'failing';
  else if (reasons.length) status = 'degraded';
  else if (reachable.ok === null && freshness.ok === null && !last) status = 'unknown';
  else status = 'healthy';
  return {
    status,
    checks: { config, reachable, freshness, errors },
    reason: reasons.length ? reasons.join('; ') : null,
    checkedAt: now,
  };
}

/** Checks, stores the result and its history entry, and announces a change of status. */
export async function refreshHealth(
  rt: Runtime,
  integ: Integration,
): Promise<{ integration: Integration; report: HealthReport; changed: boolean }> {
  const report = await computeHealth(rt, integ);
  const from = integ.healthStatus;
  const data = {
    healthStatus: report.status,
    healthChecks: report.checks as object,
    healthReason: report.reason,
    healthCheckedAt: report.checkedAt,
  };
  const { integration, event, changed } = await rt.prisma.$transaction(async (tx) => {
    // Guarded by the status read: of two concurrent checks only one records the change.
    const moved = await tx.integration.updateManyAndReturn({ where: { id: integ.id, healthStatus: from }, data });
    const row = moved[0] ?? (await tx.integration.update({ where: { id: integ.id }, data }));
    await tx.integrationHealthCheck.create({
      data: {
        tenantId: integ.tenantId,
        integrationId: integ.id,
        status: report.status,
        checks: report.checks as object,
        reason: report.reason,
        checkedAt: report.checkedAt,
      },
    });
    const old = await tx.integrationHealthCheck.findMany({
      where: { integrationId: integ.id },
      orderBy: { checkedAt: 'desc' },
      skip: HISTORY_KEPT,
      select: { id: true },
    });
    if (old.length) await tx.integrationHealthCheck.deleteMany({ where: { id: { in: old.map((o) => o.id) } } });
    const isChange = moved.length > 0 && from !== report.status;
    const bad = (s: IntegrationHealthStatus) => s === 'degraded' || s === 'failing';
    let ev = null;
    if (isChange && (bad(report.status) || (report.status === 'healthy' && bad(from)))) {
      const recovered = report.status === 'healthy';
      ev = await tx.event.create({
        data: {
          tenantId: integ.tenantId,
          receivedAt: report.checkedAt,
          type: recovered ? 'integration.recovered' : 'integration.degraded',
          module: 'integrations',
          source: `${integ.provider}/${integ.name}`.slice(0, 200),
          summary: (recovered
            ? `Integration ${integ.name} recovered`
            : `Integration ${integ.name} is ${report.status}: ${report.reason}`
          ).slice(0, 1000),
          severity: recovered ? 'info' : report.status === 'failing' ? 'critical' : 'warning',
          labels: { integration_id: integ.id, provider: integ.provider, status: report.status, previous_status: from },
          payload: {
            integration_id: integ.id,
            status: report.status,
            previous_status: from,
            reason: report.reason,
            checks: report.checks,
          } as object,
          receivedVia: 'system',
        },
      });
    }
    return { integration: row, event: ev, changed: isChange };
  });
  if (event) await announceTimelineEvents(rt, [event]);
  if (changed) {
    try {
      rt.pubsub.publish('integrationHealthChanged', integ.tenantId, {
        integrationId: integ.id,
        provider: integ.provider,
        name: integ.name,
        status: report.status,
        previousStatus: from,
        reason: report.reason,
        checkedAt: report.checkedAt.toISOString(),
      });
    } catch (err) {
      rt.logger.warn(
        { err: (err as Error).message, integrationId: integ.id },
        'integrationHealthChanged publish failed',
      );
    }
  }
  return { integration, report, changed };
}

/** The periodic task: every enabled integration of every tenant, one at a time. */
export async function checkAllIntegrations(rt: Runtime): Promise<{ checked: number; changed: number }> {
  const rows = await rt.prisma.integration.findMany({ where: { enabled: true }, orderBy: { id: 'asc' } });
  let changed = 0;
  for (const row of rows) {
    try {
      if ((await refreshHealth(rt, row)).changed) changed++;
    } catch (err) {
      rt.logger.warn({ err: (err as Error).message, integrationId: row.id }, 'integration health check failed');
    }
  }
  return { checked: rows.length, changed };
}

/** Recent checks of an integration, newest first. */
export function healthHistory(rt: Runtime, integrationId: string, tenantId: string, limit = 20) {
  return rt.prisma.integrationHealthCheck.findMany({
    where: { integrationId, tenantId },
    orderBy: { checkedAt: 'desc' },
    take: Math.min(Math.max(limit, 1), HISTORY_KEPT),
  });
}

/** Notes a failed pull or push on the integration (message only: never a config value). */
export async function noteIntegrationError(
  rt: Runtime,
  integ: Pick<Integration, 'id' | 'tenantId'>,
  message: string,
): Promise<void> {
  await rt.prisma.integration.updateMany({
    where: { id: integ.id, tenantId: integ.tenantId },
    data: { errorCount: { increment: 1 }, lastError: message.slice(0, 1000), lastErrorAt: rt.clock.now() },
  });
}

/** Notes a successful pull or push: the error streak ends. */
export async function noteIntegrationSuccess(
  rt: Runtime,
  integ: Pick<Integration, 'id' | 'tenantId'>,
  pulled = false,
): Promise<void> {
  await rt.prisma.integration.updateMany({
    where: { id: integ.id, tenantId: integ.tenantId },
    data: { errorCount: 0, ...(pulled ? { lastPullAt: rt.clock.now() } : {}) },
  });
}
