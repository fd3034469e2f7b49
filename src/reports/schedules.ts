/**
 * Report schedules (admin only): a saved report run on a cron pattern in a time zone by a BullMQ job
 * scheduler, its result delivered through the outbound webhook engine (signed, retried, in the delivery
 * history) as a `report.delivered` outbox message addressed to the schedule's webhook. A schedule whose
 * report or webhook is gone is disabled with the reason instead of failing at every run.
 */
import { stringify } from 'csv-stringify/sync';
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import type { Runtime } from '../runtime.js';
import { NotFound, ValidationFailed, type FieldProblem } from '../errors.js';
import type { ReportSchedule } from '../generated/prisma/client.js';
import { dispatchOutbox } from '../outbox/outbox.js';
import { v7 as uuidv7 } from 'uuid';
import { assertCanManageSchedules } from './policy.js';
import { executeReportQuery } from './query.js';
import { applyParameters, type ReportParameters } from './parameters.js';
import { domainMessage } from './messages.js';

export const REPORT_FORMATS = ['csv', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface ScheduleInput {
  savedReportId?: string | null;
  webhookId?: string | null;
  cron?: string | null;
  timezone?: string | null;
  format?: ReportFormat | null;
  parameters?: ReportParameters | null;
  enabled?: boolean | null;
}

const schedulerId = (id: string) => `report-schedule-${id}`;

function validTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Registers (or replaces) the schedule's job scheduler; BullMQ's cron parser is the judge of the pattern. */
async function registerScheduler(rt: Runtime, s: { id: string; cron: string; timezone: string }): Promise<void> {
  await rt.queues
    .get('reports')
    .upsertJobScheduler(
      schedulerId(s.id),
      { pattern: s.cron, tz: s.timezone },
      { name: 'deliver', data: { scheduleId: s.id } },
    );
}

async function removeScheduler(rt: Runtime, id: string): Promise<void> {
  await rt.queues
    .get('reports')
    .removeJobScheduler(schedulerId(id))
    .catch((err: Error) =>
      rt.logger.warn({ err: err.message, scheduleId: id }, 'could not remove a report job scheduler'),
    );
}

async function checkInput(
  ctx: Ctx,
  input: ScheduleInput,
  base: string[],
  current: ReportSchedule | null,
): Promise<{ cron: string; timezone: string }> {
  const problems: FieldProblem[] = [];
  const at = (k: string) => [...base, k];
  const savedReportId = input.savedReportId ?? current?.savedReportId;
  const cron = input.cron ?? current?.cron ?? '';
  const timezone = input.timezone ?? current?.timezone ?? 'UTC';
  if (!savedReportId) problems.push({ loc: at('savedReportId'), msg: 'is required' });
  const report = savedReportId ? await ctx.db.savedReport.findUnique({ where: { id: savedReportId } }) : null;
  if (savedReportId && !report) problems.push({ loc: at('savedReportId'), msg: 'no such saved report' });
  const webhookId = input.webhookId ?? current?.webhookId;
  if (!webhookId) problems.push({ loc: at('webhookId'), msg: 'is required' });
  else if (!(await ctx.db.outboundWebhook.findUnique({ where: { id: webhookId }, select: { id: true } })))
    problems.push({ loc: at('webhookId'), msg: 'no such outbound webhook' });
  if (typeof cron !== 'string' || !/^\S+( \S+){4,5}$/.test(cron.trim()) || cron.length > 100)
    problems.push({ loc: at('cron'), msg: 'must be a cron pattern of 5 or 6 fields, e.g. `0 8 * * 1`' });
  if (!validTimezone(timezone))
    problems.push({ loc: at('timezone'), msg: 'must be an IANA time zone such as Europe/Berlin' });
  if (input.format != null && !REPORT_FORMATS.includes(input.format))
    problems.push({ loc: at('format'), msg: `must be one of ${REPORT_FORMATS.join(', ')}` });
  if (report && !problems.length) {
    try {
      applyParameters(
        report.query,
        input.parameters ?? (current?.parameters as ReportParameters) ?? {},
        at('parameters'),
      );
    } catch (err) {
      if (err instanceof ValidationFailed) problems.push(...(err.extra.fields ?? []));
      else throw err;
    }
  }
  if (problems.length) throw new ValidationFailed(problems);
  return { cron: cron.trim(), timezone };
}

/** The schedule, or 404 (another tenant's included). */
export async function loadSchedule(ctx: Ctx, id: string): Promise<ReportSchedule> {
  assertCanManageSchedules(ctx);
  const s = await ctx.db.reportSchedule.findUnique({ where: { id } });
  if (!s) throw new NotFound('Report schedule');
  return s;
}

/** Creates a schedule and its job scheduler (an invalid cron pattern is a 422 and nothing is stored). */
export async function createSchedule(
  ctx: Ctx,
  input: ScheduleInput,
  base: string[] = ['input'],
): Promise<ReportSchedule> {
  assertCanManageSchedules(ctx);
  const me = requireUser(ctx);
  const { cron, timezone } = await checkInput(ctx, input, base, null);
  const id = uuidv7();
  const enabled = input.enabled ?? true;
  if (enabled) {
    try {
      await registerScheduler(ctx.rt, { id, cron, timezone });
    } catch (err) {
      throw new ValidationFailed([
        { loc: [...base, 'cron'], msg: `is not a valid cron pattern: ${(err as Error).message}` },
      ]);
    }
  }
  try {
    return await ctx.db.reportSchedule.create({
      data: {
        id,
        tenantId: me.tenantId,
        ownerId: me.userId,
        savedReportId: input.savedReportId!,
        webhookId: input.webhookId!,
        cron,
        timezone,
        format: input.format ?? 'json',
        parameters: (input.parameters ?? {}) as object,
        enabled,
      },
    });
  } catch (err) {
    await removeScheduler(ctx.rt, id);
    throw err;
  }
}

/** Changes a schedule; re-enabling clears the disabled reason. */
export async function updateSchedule(
  ctx: Ctx,
  id: string,
  input: ScheduleInput,
  base: string[] = ['input'],
): Promise<ReportSchedule> {
  const current = await loadSchedule(ctx, id);
  const { cron, timezone } = await checkInput(ctx, input, base, current);
  const enabled = input.enabled ?? current.enabled;
  if (enabled) {
    try {
      await registerScheduler(ctx.rt, { id, cron, timezone });
    } catch (err) {
      throw new ValidationFailed([
        { loc: [...base, 'cron'], msg: `is not a valid cron pattern: ${(err as Error).message}` },
      ]);
    }
  } else await removeScheduler(ctx.rt, id);
  return ctx.db.reportSchedule.update({
    where: { id },
    data: {
      ...(input.savedReportId != null ? { savedReportId: input.savedReportId } : {}),
      ...(input.webhookId != null ? { webhookId: input.webhookId } : {}),
      ...(input.format != null ? { format: input.format } : {}),
      ...(input.parameters != null ? { parameters: input.parameters as object } : {}),
      cron,
      timezone,
      enabled,
      ...(enabled ? { disabledReason: null } : {}),
    },
  });
}

export async function deleteSchedule(ctx: Ctx, id: string): Promise<ReportSchedule> {
  const s = await loadSchedule(ctx, id);
  await ctx.db.reportSchedule.delete({ where: { id } });
  await removeScheduler(ctx.rt, id);
  return s;
}

/** Disables a schedule with the reason and removes its job scheduler. */
async function disableSchedule(rt: Runtime, id: string, reason: string): Promise<void> {
  await rt.prisma.reportSchedule.update({ where: { id }, data: { enabled: false, disabledReason: reason } });
  await removeScheduler(rt, id);
}

/** Disables every enabled schedule of a saved report (it is being deleted). */
export async function disableSchedulesOfReport(
  rt: Runtime,
  tenantId: string,
  savedReportId: string,
  reason: string,
): Promise<void> {
  const rows = await rt.prisma.reportSchedule.findMany({
    where: { tenantId, savedReportId, enabled: true },
    select: { id: true },
  });
  for (const r of rows) await disableSchedule(rt, r.id, reason);
}

/** Disables every enabled schedule delivering to an outbound webhook (it has been deleted). */
export async function disableSchedulesOfWebhook(rt: Runtime, tenantId: string, webhookId: string): Promise<void> {
  const rows = await rt.prisma.reportSchedule.findMany({
    where: { tenantId, webhookId, enabled: true },
    select: { id: true },
  });
  for (const r of rows) await disableSchedule(rt, r.id, WEBHOOK_GONE);
}

const WEBHOOK_GONE = 'Its outbound webhook was deleted.';

export interface ScheduleRun {
  scheduleId: string;
  status: 'delivered' | 'disabled' | 'skipped';
  outboxId: string | null;
  rowCount: number | null;
  reason: string | null;
}

/**
 * Runs a schedule once: checks its report and webhook (disabling it with the reason when either is
 * gone), runs the report for the schedule's tenant and writes a `report.delivered` outbox message
 * addressed to its webhook. Idempotent per `runKey` (a retried job does not deliver twice).
 */
export async function deliverScheduledReport(rt: Runtime, scheduleId: string, runKey: string): Promise<ScheduleRun> {
  const none = { outboxId: null, rowCount: null };
  const s = await rt.prisma.reportSchedule.findUnique({ where: { id: scheduleId } });
  if (!s) return { scheduleId, status: 'skipped', ...none, reason: 'no such schedule' };
  if (!s.enabled) return { scheduleId, status: 'skipped', ...none, reason: s.disabledReason ?? 'disabled' };
  const report = s.savedReportId
    ? await rt.prisma.savedReport.findFirst({ where: { id: s.savedReportId, tenantId: s.tenantId } })
    : null;
  const hook = await rt.prisma.outboundWebhook.findFirst({
    where: { id: s.webhookId, tenantId: s.tenantId },
    select: { id: true },
  });
  const gone = !report ? 'Its saved report was deleted.' : !hook ? WEBHOOK_GONE : null;
  if (gone || !report || !hook) {
    await disableSchedule(rt, s.id, gone!);
    return { scheduleId, status: 'disabled', ...none, reason: gone };
  }
  let result;
  try {
    result = await executeReportQuery(
      rt,
      s.tenantId,
      applyParameters(report.query, s.parameters as ReportParameters, ['parameters']),
    );
  } catch (err) {
    const reason = `The report can no longer run: ${domainMessage(err)}`;
    if (err instanceof ValidationFailed) {
      await disableSchedule(rt, s.id, reason);
      return { scheduleId, status: 'disabled', ...none, reason };
    }
    await rt.prisma.reportSchedule.update({ where: { id: s.id }, data: { lastError: reason } });
    throw err;
  }
  const ranAt = rt.clock.now();
  const payload = {
    schedule_id: s.id,
    saved_report: { id: report.id, name: report.name },
    format: s.format,
    ran_at: ranAt.toISOString(),
    entity: result.entity,
    columns: result.columns,
    row_count: result.row_count,
    truncated: result.truncated,
    ...(s.format === 'csv'
      ? {
          csv: stringify(result.rows, {
            header: true,
            columns: result.columns.map((c) => c.name),
            cast: { object: (v) => JSON.stringify(v), boolean: (v) => String(v) },
          }),
        }
      : { rows: result.rows }),
  };
  const dedupKey = `report.delivered:${s.id}:${runKey}`;
  const written = await rt.prisma.outboxMessage.createManyAndReturn({
    data: [
      {
        createdAt: ranAt,
        tenantId: s.tenantId,
        topic: 'report.delivered',
        subjectId: s.id,
        dedupKey,
        body: {
          source: 'ops-service',
          kind: 'report.delivered',
          severity: null,
          labels: { report: report.name.slice(0, 200) },
          payload,
          addressedTo: hook.id,
        } as object,
      },
    ],
    skipDuplicates: true,
    select: { id: true },
  });
  const outboxId =
    written[0]?.id ?? (await rt.prisma.outboxMessage.findUnique({ where: { dedupKey }, select: { id: true } }))!.id;
  await rt.prisma.reportSchedule.update({
    where: { id: s.id },
    data: { lastRunAt: ranAt, lastOutboxId: outboxId, lastError: null },
  });
  await dispatchOutbox(rt, [outboxId]);
  return { scheduleId, status: 'delivered', outboxId, rowCount: result.row_count, reason: null };
}

/** Runs a schedule now, for an admin of its tenant. */
export async function runScheduleNow(ctx: Ctx, id: string): Promise<ScheduleRun> {
  const s = await loadSchedule(ctx, id);
  return deliverScheduledReport(ctx.rt, s.id, `manual-${uuidv7()}`);
}

/**
 * Re-registers the job scheduler of every enabled schedule (they live only in Redis): a periodic
 * maintenance task, so a Redis that lost its data gets them back.
 */
export async function refreshReportSchedulers(rt: Runtime): Promise<number> {
  const rows = await rt.prisma.reportSchedule.findMany({
    where: { enabled: true },
    select: { id: true, cron: true, timezone: true },
  });
  for (const r of rows)
    await registerScheduler(rt, r).catch((err: Error) =>
      rt.logger.warn({ err: err.message, scheduleId: r.id }, 'could not register a report schedule'),
    );
  return rows.length;
}
