/**
 * `node(id:)` and `nodes(ids:)`: any object that implements `Node`, by its UUIDv7 id, within the caller's
 * tenant. One statement finds which table holds each id (a UNION over the node tables, each filtered by
 * the caller's tenant), then one tenant-scoped read per type loads the rows. An id of another tenant,
 * or of nothing, is null: a client holding an id it may not see learns nothing, as Relay servers answer.
 */
import { Prisma } from '../src/generated/prisma/client.js';
import type { Ctx } from '../src/context.js';
import { requireUser } from '../src/context.js';
import { invalid } from '../src/errors.js';
import { builder, NodeRef, NODE_TYPE_TAG } from './builder.js';

/** GraphQL type → the Prisma delegate (camelCase model) and table of the same name (unless NODE_TABLES says). */
export const NODE_TYPES = {
  Alert: 'alert',
  AlertRule: 'alertRule',
  MaintenanceWindow: 'silence',
  Event: 'event',
  InboundWebhook: 'inboundWebhook',
  OutboundWebhook: 'outboundWebhook',
  Delivery: 'delivery',
  Device: 'device',
  Proposal: 'proposal',
  User: 'user',
  AccessToken: 'accessToken',
  Integration: 'integration',
  Cluster: 'cluster',
  SavedReport: 'savedReport',
  Dashboard: 'dashboard',
  ReportSchedule: 'reportSchedule',
  AssistantAction: 'assistantAction',
  Gpu: 'gpu',
  GpuDiagnostic: 'gpuDiagnostic',
  AiperfRun: 'aiperfRun',
  BillingMeter: 'billingMeter',
  Schedule: 'schedule',
  EscalationPolicy: 'escalationPolicy',
  AlertGroup: 'alertGroup',
} as const;
export type NodeType = keyof typeof NODE_TYPES;

/** Types stored in another type's table: the table and the condition that picks their rows. */
const NODE_TABLES: Partial<Record<NodeType, { table: string; where: string }>> = {
  // A maintenance window is a silence that carries a window name (src/routing/maintenance-window-store.ts).
  MaintenanceWindow: { table: 'Silence', where: ' AND "windowName" IS NOT NULL' },
};

const NODE_TYPE = NODE_TYPE_TAG;
type NodeRow = { id: string; [NODE_TYPE]: NodeType };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The rows of these ids the caller's tenant owns, each tagged with its GraphQL type. */
async function loadNodes(ctx: Ctx, ids: readonly string[]): Promise<Map<string, NodeRow>> {
  const tenantId = requireUser(ctx).tenantId;
  const wanted = [...new Set(ids.filter((id) => UUID.test(id)).map((id) => id.toLowerCase()))];
  const out = new Map<string, NodeRow>();
  if (wanted.length === 0) return out;
  // Table names come from the constant above, never from the caller.
  const union = Prisma.join(
    (Object.keys(NODE_TYPES) as NodeType[]).map((type) => {
      const { table, where } = NODE_TABLES[type] ?? { table: type, where: '' };
      return Prisma.sql`SELECT ${type} AS type, "id" FROM ${Prisma.raw(`"${table}"`)} WHERE "tenantId" = ${tenantId} AND "id" = ANY(${wanted}::text[])${Prisma.raw(where)}`;
    }),
    ' UNION ALL ',
  );
  const located = await ctx.rt.prisma.$queryRaw<Array<{ type: NodeType; id: string }>>`${union}`;
  const byType = new Map<NodeType, string[]>();
  for (const { type, id } of located) byType.set(type, [...(byType.get(type) ?? []), id]);
  await Promise.all(
    [...byType].map(async ([type, typeIds]) => {
      const delegate = (
        ctx.db as unknown as Record<string, { findMany(args: unknown): Promise<Array<{ id: string }>> }>
      )[NODE_TYPES[type]];
      for (const row of await delegate.findMany({ where: { id: { in: typeIds } } }))
        out.set(row.id, Object.assign(row, { [NODE_TYPE]: type }));
    }),
  );
  return out;
}

builder.queryFields((t) => ({
  node: t.field({
    type: NodeRef,
    nullable: true,
    authScopes: { user: true },
    description:
      "Any object with an id (an alert, a device, a proposal, ...). Null when the id names nothing in the caller's tenant.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) =>
      (await loadNodes(ctx, [String(args.id)])).get(String(args.id).toLowerCase()) ?? null,
  }),
  nodes: t.field({
    type: [NodeRef],
    nullable: { list: false, items: true },
    authScopes: { user: true },
    description:
      "The objects of these ids, in the same order; null for an id that names nothing in the caller's tenant. At most 100 ids.",
    args: { ids: t.arg.idList({ required: true }) },
    resolve: async (_root, args, ctx) => {
      if (args.ids.length > 100) throw invalid(['ids'], `At most 100 ids (got ${args.ids.length}).`);
      const found = await loadNodes(ctx, args.ids.map(String));
      return args.ids.map((id) => found.get(String(id).toLowerCase()) ?? null);
    },
  }),
}));
