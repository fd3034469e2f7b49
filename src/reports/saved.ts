/**
 * Saved reports: a name, a description and a validated query document, owned by their creator.
 * Running one may override its filters, `since_hours` and `limit` with parameter values.
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { NotFound, ValidationFailed, type FieldProblem } from '../errors.js';
import type { SavedReport } from '../generated/prisma/client.js';
import { assertCanEdit } from './policy.js';
import { executeReportQuery, parseReportQuery, type ReportResult } from './query.js';
import { withReportSlot } from './slots.js';
export type { ReportParameters } from './parameters.js';
import { applyParameters, type ReportParameters } from './parameters.js';
import { disableSchedulesOfReport } from './schedules.js';

export interface SavedReportInput {
  name?: string | null;
  description?: string | null;
  query?: unknown;
}

const MAX_NAME = 200;
const MAX_DESCRIPTION = 2000;

function checkText(input: SavedReportInput, base: string[], creating: boolean): void {
  const problems: FieldProblem[] = [];
  if (creating || input.name != null) {
    if (typeof input.name !== 'string' || !input.name.trim() || input.name.length > MAX_NAME)
      problems.push({ loc: [...base, 'name'], msg: `must be 1 to ${MAX_NAME} characters` });
  }
  if (
    input.description != null &&
    (typeof input.description !== 'string' || input.description.length > MAX_DESCRIPTION)
  )
    problems.push({ loc: [...base, 'description'], msg: `must be at most ${MAX_DESCRIPTION} characters` });
  if (problems.length) throw new ValidationFailed(problems);
}

/** The saved report, or 404 (another tenant's included). */
export async function loadSavedReport(ctx: Ctx, id: string): Promise<SavedReport> {
  const r = await ctx.db.savedReport.findUnique({ where: { id } });
  if (!r) throw new NotFound('Saved report');
  return r;
}

/** Creates a saved report owned by the caller; the query is stored validated and normalized. */
export async function createSavedReport(
  ctx: Ctx,
  input: SavedReportInput,
  base: string[] = ['input'],
): Promise<SavedReport> {
  const me = requireUser(ctx);
  checkText(input, base, true);
  const query = parseReportQuery(input.query, [...base, 'query']);
  return ctx.db.savedReport.create({
    data: {
      tenantId: me.tenantId,
      ownerId: me.userId,
      name: input.name!.trim(),
      description: input.description ?? null,
      query: query as object,
    },
  });
}

/** Changes a saved report (owner or admin). */
export async function updateSavedReport(
  ctx: Ctx,
  id: string,
  input: SavedReportInput,
  base: string[] = ['input'],
): Promise<SavedReport> {
  const existing = await loadSavedReport(ctx, id);
  assertCanEdit(ctx, existing, 'saved report');
  checkText(input, base, false);
  const data: Record<string, unknown> = {};
  if (input.name != null) data.name = input.name.trim();
  if (input.description !== undefined) data.description = input.description;
  if (input.query !== undefined) data.query = parseReportQuery(input.query, [...base, 'query']) as object;
  return ctx.db.savedReport.update({ where: { id }, data });
}

/** Deletes a saved report (owner or admin); its schedules are disabled with the reason. */
export async function deleteSavedReport(ctx: Ctx, id: string): Promise<SavedReport> {
  const existing = await loadSavedReport(ctx, id);
  assertCanEdit(ctx, existing, 'saved report');
  await disableSchedulesOfReport(ctx.rt, existing.tenantId, id, 'Its saved report was deleted.');
  await ctx.db.savedReport.delete({ where: { id } });
  return existing;
}

/** Runs a saved report for the caller's tenant, with optional parameter values. */
export async function runSavedReport(
  ctx: Ctx,
  id: string,
  params: ReportParameters | null | undefined,
  base: string[] = ['parameters'],
): Promise<ReportResult> {
  const me = requireUser(ctx);
  const r = await loadSavedReport(ctx, id);
  const q = applyParameters(r.query, params, base);
  return withReportSlot(ctx.rt, me.tenantId, () => executeReportQuery(ctx.rt, me.tenantId, q));
}
