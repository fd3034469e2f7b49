/**
 * Dashboards: saved-report panels on a grid, owned by their creator. A dashboard's data is every
 * panel's result in one request: the panels' saved reports are read in one statement and each distinct
 * report runs once, all in parallel (src/reports/loaders.ts).
 */
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { NotFound, ValidationFailed, type FieldProblem } from '../errors.js';
import type { Dashboard } from '../generated/prisma/client.js';
import { assertCanEdit } from './policy.js';
import { panelResultLoader } from './loaders.js';
import type { ReportResult } from './query.js';

export const VIZ = ['table', 'line', 'bar', 'stat'] as const;
export type Viz = (typeof VIZ)[number];

export interface Panel {
  title: string;
  savedReportId: string;
  viz: Viz;
  position: { x: number; y: number; w: number; h: number };
}

export interface DashboardInput {
  name?: string | null;
  panels?: Panel[] | null;
}

export const DASHBOARD_LIMITS = { maxPanels: 50, maxGrid: 1000 } as const;

/** The panels as stored (unknown shapes are dropped rather than trusted). */
export function storedPanels(json: unknown): Panel[] {
  return Array.isArray(json)
    ? (json.filter((p) => p && typeof p === 'object' && typeof (p as Panel).savedReportId === 'string') as Panel[])
    : [];
}

async function checkInput(ctx: Ctx, input: DashboardInput, base: string[], creating: boolean): Promise<void> {
  const problems: FieldProblem[] = [];
  if (creating || input.name != null) {
    if (typeof input.name !== 'string' || !input.name.trim() || input.name.length > 200)
      problems.push({ loc: [...base, 'name'], msg: 'must be 1 to 200 characters' });
  }
  const panels = input.panels ?? [];
  if (panels.length > DASHBOARD_LIMITS.maxPanels)
    problems.push({ loc: [...base, 'panels'], msg: `must list at most ${DASHBOARD_LIMITS.maxPanels} panels` });
  const ids = [...new Set(panels.map((p) => p.savedReportId))];
  const found = new Set(
    (await ctx.db.savedReport.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((r) => r.id),
  );
  panels.forEach((p, i) => {
    const at = (...k: string[]) => [...base, 'panels', String(i), ...k];
    if (typeof p.title !== 'string' || !p.title.trim() || p.title.length > 200)
      problems.push({ loc: at('title'), msg: 'must be 1 to 200 characters' });
    if (!found.has(p.savedReportId)) problems.push({ loc: at('savedReportId'), msg: 'no such saved report' });
    if (!VIZ.includes(p.viz)) problems.push({ loc: at('viz'), msg: `must be one of ${VIZ.join(', ')}` });
    const pos = p.position ?? ({} as Panel['position']);
    for (const k of ['x', 'y', 'w', 'h'] as const) {
      const min = k === 'w' || k === 'h' ? 1 : 0;
      if (!Number.isInteger(pos[k]) || pos[k] < min || pos[k] > DASHBOARD_LIMITS.maxGrid)
        problems.push({ loc: at('position', k), msg: `must be an integer from ${min} to ${DASHBOARD_LIMITS.maxGrid}` });
    }
  });
  if (problems.length) throw new ValidationFailed(problems);
}

function normalize(panels: Panel[]): Panel[] {
  return panels.map((p) => ({
    title: p.title.trim(),
    savedReportId: p.savedReportId,
    viz: p.viz,
    position: { x: p.position.x, y: p.position.y, w: p.position.w, h: p.position.h },
  }));
}

/** The dashboard, or 404 (another tenant's included). */
export async function loadDashboard(ctx: Ctx, id: string): Promise<Dashboard> {
  const d = await ctx.db.dashboard.findUnique({ where: { id } });
  if (!d) throw new NotFound('Dashboard');
  return d;
}

export async function createDashboard(ctx: Ctx, input: DashboardInput, base: string[] = ['input']): Promise<Dashboard> {
  const me = requireUser(ctx);
  await checkInput(ctx, input, base, true);
  return ctx.db.dashboard.create({
    data: {
      tenantId: me.tenantId,
      ownerId: me.userId,
      name: input.name!.trim(),
      panels: normalize(input.panels ?? []) as object[],
    },
  });
}

/** Changes a dashboard (owner or admin); `panels`, when given, replaces the whole list. */
export async function updateDashboard(
  ctx: Ctx,
  id: string,
  input: DashboardInput,
  base: string[] = ['input'],
): Promise<Dashboard> {
  const existing = await loadDashboard(ctx, id);
  assertCanEdit(ctx, existing, 'dashboard');
  await checkInput(ctx, input, base, false);
  const data: Record<string, unknown> = {};
  if (input.name != null) data.name = input.name.trim();
  if (input.panels != null) data.panels = normalize(input.panels);
  return ctx.db.dashboard.update({ where: { id }, data });
}

export async function deleteDashboard(ctx: Ctx, id: string): Promise<Dashboard> {
  const existing = await loadDashboard(ctx, id);
  assertCanEdit(ctx, existing, 'dashboard');
  await ctx.db.dashboard.delete({ where: { id } });
  return existing;
}

export interface PanelData {
  panel: Panel;
  index: number;
  data: ReportResult | null;
  error: string | null;
}

/** Every panel's result, in one request; a panel whose report is gone or fails carries the error instead. */
export async function dashboardData(ctx: Ctx, dashboard: Dashboard): Promise<PanelData[]> {
  const loader = panelResultLoader(ctx);
  const panels = storedPanels(dashboard.panels);
  const results = await loader.loadMany(panels.map((p) => p.savedReportId));
  return panels.map((panel, index) => {
    const r = results[index];
    return r instanceof Error ? { panel, index, data: null, error: r.message } : { panel, index, data: r, error: null };
  });
}
