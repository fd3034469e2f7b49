/**
 * Deprecated aliases (docs/api-evolution.md): old public names kept working after a rename, each with
 * `@deprecated(reason: "Use … instead; removal after <date>")` at least 90 days out. Each resolves
 * exactly as its replacement does; CHANGELOG.md lists them and the release that removes them.
 */
import { builder, found } from './builder.js';
import { deleteBudget } from '../src/billing/budget.js';

/** 1.0.0 (2026-11-28) + 90 days, rounded up to the next month. */
const REMOVAL_AFTER = '2027-03-01';

builder.queryFields((t) => ({
  webhook: t.prismaField({
    type: 'OutboundWebhook',
    authScopes: { user: true },
    description: 'One outbound webhook; the old name of `outboundWebhook(id:)`.',
    deprecationReason: `Use outboundWebhook(id:) instead; removal after ${REMOVAL_AFTER}`,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) =>
      found('Webhook', await ctx.db.outboundWebhook.findUnique({ ...query, where: { id: String(args.id) } })),
  }),
}));

builder.mutationFields((t) => ({
  deleteBudget: t.boolean({
    authScopes: { admin: true },
    description: "Removes the tenant's budget; the old name of `clearBudget`, true when there was one.",
    deprecationReason: `Use clearBudget instead; removal after ${REMOVAL_AFTER}`,
    resolve: (_r, _a, ctx) => deleteBudget(ctx),
  }),
}));
