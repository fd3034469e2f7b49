/**
 * REST routes of billing (`/billing/*`): reads that run the `billing { … }` GraphQL operations of
 * schema/billing.ts, and the FOCUS export (a file: HandlerRoute calling src/billing/export.ts).
 * Prices, meters, settings and budgets change through GraphQL mutations (admin).
 */
import type { RouteEntry } from '../route-types.js';
import { exportFocus, type FocusExportArgs } from '../../src/billing/export.js';
import {
  BREAKDOWN_FIELDS,
  CURRENT_FIELDS,
  DAILY_FIELDS,
  LOCAL_GPU_FIELDS,
  SKU_FIELDS,
  presentBreakdown,
  presentCurrent,
  presentDaily,
  presentLocalGpu,
  presentSku,
} from '../presenters/billing.js';

const str = (v: unknown) => (typeof v === 'string' ? v : null);
const periodVars = (q: Record<string, unknown>) => ({ period: str(q.period), from: str(q.from), to: str(q.to) });

export const billingRoutes: RouteEntry[] = [
  {
    method: 'get',
    path: '/billing/current',
    operation: `query BillingCurrent { billing { current { ${CURRENT_FIELDS} } } }`,
    respond: (data) => presentCurrent(data.billing.current),
  },
  {
    method: 'get',
    path: '/billing/breakdown',
    operation: `query BillingBreakdown($groupBy: BillingGroupBy!, $period: String, $from: String, $to: String) { billing { breakdown(groupBy: $groupBy, period: $period, from: $from, to: $to) { ${BREAKDOWN_FIELDS} } } }`,
    variables: (req) => ({ group_by: req.query.group_by ?? 'source', ...periodVars(req.query) }),
    respond: (data) => presentBreakdown(data.billing.breakdown),
  },
  {
    method: 'get',
    path: '/billing/daily',
    operation: `query BillingDaily($days: Int) { billing { daily(days: $days) { ${DAILY_FIELDS} } } }`,
    variables: (req) => ({ days: req.query.days === undefined ? null : Number(req.query.days) }),
    respond: (data) => presentDaily(data.billing.daily),
  },
  {
    method: 'get',
    path: '/billing/local-gpu',
    operation: `query BillingLocalGpu($period: String, $from: String, $to: String) { billing { localGpu(period: $period, from: $from, to: $to) { ${LOCAL_GPU_FIELDS} } } }`,
    variables: (req) => periodVars(req.query),
    respond: (data) => presentLocalGpu(data.billing.localGpu),
  },
  {
    method: 'get',
    path: '/billing/skus',
    operation: `query BillingSkus { billing { skus { ${SKU_FIELDS} } } }`,
    respond: (data) => ({ items: data.billing.skus.map(presentSku) }),
  },
  {
    method: 'get',
    path: '/billing/export',
    variables: (req) => ({ format: str(req.query.format), ...periodVars(req.query) }),
    handler: async (req, res, vars) => {
      const file = await exportFocus(req.ctx, vars as FocusExportArgs);
      res.status(200);
      res.setHeader('Content-Type', file.contentType);
      res.setHeader('Content-Disposition', `attachment; filename="${file.filename}"`);
      res.setHeader('Cache-Control', 'no-store');
      res.send(file.body);
    },
  },
];
