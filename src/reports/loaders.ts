/**
 * Per-request batching for dashboards: a panel's result is loaded by saved report id; one request
 * reads all the saved reports it needs in one statement and runs each distinct report once, whatever
 * the number of panels or dashboards it resolves.
 */
import DataLoader from 'dataloader';
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { domainMessage } from './messages.js';
import { executeReportQuery, type ReportResult } from './query.js';
import { applyParameters } from './parameters.js';

const loaders = new WeakMap<Ctx, DataLoader<string, ReportResult>>();

/** The request's loader of panel results by saved report id. */
export function panelResultLoader(ctx: Ctx): DataLoader<string, ReportResult> {
  let l = loaders.get(ctx);
  if (!l) {
    l = new DataLoader<string, ReportResult>(async (ids) => {
      const me = requireUser(ctx);
      const reports = await ctx.db.savedReport.findMany({ where: { id: { in: [...ids] } } });
      const byId = new Map(reports.map((r) => [r.id, r]));
      return Promise.all(
        ids.map(async (id) => {
          const r = byId.get(id);
          if (!r) return new Error('The saved report of this panel was deleted.');
          try {
            return await executeReportQuery(ctx.rt, me.tenantId, applyParameters(r.query, null, ['parameters']));
          } catch (err) {
            return new Error(domainMessage(err));
          }
        }),
      );
    });
    loaders.set(ctx, l);
  }
  return l;
}
