/**
 * Per-request batching for dashboards: a panel's result is loaded by saved report id; one request
 * reads all the saved reports it needs in one statement and runs each distinct report once, whatever
 * the number of panels or dashboards it resolves, one after another in one of the tenant's report slots.
 */
import DataLoader from 'dataloader';
import type { Ctx } from '../context.js';
import { requireUser } from '../context.js';
import { domainMessage } from './messages.js';
import { executeReportQuery, type ReportResult } from './query.js';
import { applyParameters } from './parameters.js';
import { withReportSlot } from './slots.js';

const loaders = new WeakMap<Ctx, DataLoader<string, ReportResult>>();

/** The request's loader of panel results by saved report id. */
export function panelResultLoader(ctx: Ctx): DataLoader<string, ReportResult> {
  let l = loaders.get(ctx);
  if (!l) {
    l = new DataLoader<string, ReportResult>(async (ids) => {
      const me = requireUser(ctx);
      const reports = await ctx.db.savedReport.findMany({ where: { id: { in: [...ids] } } });
      const byId = new Map(reports.map((r) => [r.id, r]));
      // One report slot for the whole batch (./slots.ts), its panels run one after another in it.
      return withReportSlot(ctx.rt, me.tenantId, async () => {
        const results: Array<ReportResult | Error> = [];
        for (const id of ids) {
          const r = byId.get(id);
          if (!r) {
            results.push(new Error('The saved report of this panel was deleted.'));
            continue;
          }
          try {
            results.push(await executeReportQuery(ctx.rt, me.tenantId, applyParameters(r.query, null, ['parameters'])));
          } catch (err) {
            results.push(new Error(domainMessage(err)));
          }
        }
        return results;
      });
    });
    loaders.set(ctx, l);
  }
  return l;
}
