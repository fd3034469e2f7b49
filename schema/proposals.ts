/**
 * GraphQL of the proposals area: change proposals under the four-eyes rule, their connection with
 * filters, open/update/approve/deny, and the `proposalChanged` subscription.
 */
import { filter as filterIterable, pipe } from 'graphql-yoga';
import { builder, found, upperCaseValues, NodeRef } from './builder.js';
import { PAGE, ProposalConnection } from './connections.js';
import { requireUser } from '../src/context.js';
import {
  approveProposal,
  denyProposal,
  openProposal,
  proposalWhere,
  updateProposal,
} from '../src/proposals/proposals.js';
import { OPEN_PROPOSAL_STATUSES } from '../src/proposals/states.js';
import { proposalDiff } from '../src/proposals/review.js';

export const ProposalStatusEnum = builder.enumType('ProposalStatus', {
  description:
    'proposed → approved → applied | failed; proposed → denied. Editing an approved proposal voids the approval (back to proposed).',
  values: upperCaseValues(['proposed', 'approved', 'denied', 'applied', 'failed'] as const),
});

builder.prismaObject('Proposal', {
  interfaces: [NodeRef],
  description: 'A change to a device that a second human must approve (four-eyes rule).',
  // Always loaded: the id; every column (the intent too) only when a query asks for it (schema/loaded-scalars.ts).
  select: { id: true },
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    kind: t.exposeString('kind', {
      description: 'Freeform identifier such as `config_change`; outbound triggers select on it.',
    }),
    status: t.expose('status', { type: ProposalStatusEnum }),
    device: t.relation('device', { nullable: true, description: 'The target device (null once it has been deleted).' }),
    proposedIntent: t.exposeString('proposedIntent', {
      nullable: true,
      description: 'The intended configuration it would make current.',
    }),
    action: t.exposeString('action', {
      nullable: true,
      description:
        '`reconcile` runs here; any other action is released to automation via the proposal.applied trigger.',
    }),
    reason: t.exposeString('reason', { nullable: true, description: 'Why the proposer wants the change.' }),
    diff: t.string({
      nullable: true,
      select: { deviceId: true, proposedIntent: true },
      description:
        "What approving would change: a unified diff of the device's current intent (`--- current/<device>`) against the proposed one (`+++ proposed/<device>`), the same diff as drift. Empty when they are equal; null for an action proposal or a deleted device.",
      resolve: (p, _args, ctx) => proposalDiff(ctx, p),
    }),
    revision: t.exposeInt('revision', {
      description: 'Bumped by every edit; an approval holds only for the revision it was given to.',
    }),
    proposer: t.relation('proposer'),
    approver: t.relation('approver', { nullable: true }),
    approvedAt: t.expose('approvedAt', { type: 'DateTime', nullable: true }),
    approvedRevision: t.exposeInt('approvedRevision', { nullable: true }),
    deniedBy: t.relation('deniedBy', { nullable: true }),
    deniedAt: t.expose('deniedAt', { type: 'DateTime', nullable: true }),
    denialReason: t.exposeString('denialReason', { nullable: true }),
    appliedAt: t.expose('appliedAt', { type: 'DateTime', nullable: true }),
    failureReason: t.exposeString('failureReason', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const OpenProposalInput = builder.inputType('OpenProposalInput', {
  fields: (t) => ({
    title: t.string({ required: true }),
    kind: t.string({ required: true }),
    deviceId: t.id({ required: true, description: 'The target device.' }),
    proposedIntent: t.string({ description: 'The new intended configuration (give this or `action`).' }),
    action: t.string({ description: 'An action to carry out instead of an intent change, e.g. `reconcile`.' }),
    reason: t.string(),
  }),
});

const UpdateProposalInput = builder.inputType('UpdateProposalInput', {
  description: 'Fields to change; omitted fields stay. Any change bumps the revision and voids an approval.',
  fields: (t) => ({
    title: t.string(),
    kind: t.string(),
    deviceId: t.id(),
    proposedIntent: t.string(),
    action: t.string(),
    reason: t.string(),
  }),
});

const ProposalFilterArgs = (t: Parameters<Parameters<typeof builder.queryFields>[0]>[0]) => ({
  status: t.arg({ type: ProposalStatusEnum }),
  open: t.arg.boolean({ description: 'Only proposals still waiting (proposed or approved).' }),
  kind: t.arg.string(),
  deviceId: t.arg.id(),
  olderThan: t.arg.string({
    description: 'Only proposals created longer ago than this duration: `30m`, `24h`, `7d`, `1h30m`.',
  }),
});

builder.queryFields((t) => ({
  proposals: t.prismaConnection(
    {
      type: 'Proposal',
      cursor: 'id',
      authScopes: { user: true },
      ...PAGE,
      description: 'Proposals of the tenant, newest first.',
      args: ProposalFilterArgs(t),
      totalCount: (_conn, args, ctx) =>
        ctx.db.proposal.count({
          where: {
            ...proposalWhere({ ...args, deviceId: args.deviceId ? String(args.deviceId) : null }, ctx.rt.clock.now()),
            ...(args.open ? { status: { in: [...OPEN_PROPOSAL_STATUSES] } } : {}),
          },
        }),
      resolve: (query, _root, args, ctx) => {
        const where = proposalWhere(
          { ...args, deviceId: args.deviceId ? String(args.deviceId) : null },
          ctx.rt.clock.now(),
        );
        if (args.open && !args.status) where.status = { in: [...OPEN_PROPOSAL_STATUSES] };
        return ctx.db.proposal.findMany({ ...query, where, orderBy: { id: 'desc' } });
      },
    },
    ProposalConnection,
  ),
  proposal: t.prismaField({
    type: 'Proposal',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) =>
      found('Proposal', await ctx.db.proposal.findUnique({ ...query, where: { id: String(args.id) } })),
  }),
}));

builder.mutationFields((t) => ({
  openProposal: t.prismaField({
    type: 'Proposal',
    authScopes: { user: true },
    description: 'Opens a proposal. Any user may propose (service users included); approval needs a second human.',
    args: { input: t.arg({ type: OpenProposalInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const p = await openProposal(ctx, { ...input, deviceId: String(input.deviceId) });
      return ctx.db.proposal.findUniqueOrThrow({ ...query, where: { id: p.id } });
    },
  }),
  updateProposal: t.prismaField({
    type: 'Proposal',
    authScopes: { user: true },
    description: 'Changes a proposal (proposer only). Bumps `revision`; an approval already given is void.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateProposalInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const { deviceId, ...rest } = args.input;
      const p = await updateProposal(ctx, String(args.id), {
        ...rest,
        ...(deviceId != null ? { deviceId: String(deviceId) } : {}),
      });
      return ctx.db.proposal.findUniqueOrThrow({ ...query, where: { id: p.id } });
    },
  }),
  approveProposal: t.prismaField({
    type: 'Proposal',
    authScopes: { user: true },
    description:
      'Approves (four-eyes rule: a human other than the proposer; another credential of the proposer or a service user is refused with the reason). Give `revision` to approve only the revision you reviewed. The proposal is then applied by a job.',
    args: { id: t.arg.id({ required: true }), revision: t.arg.int() },
    resolve: async (query, _root, args, ctx) => {
      const p = await approveProposal(ctx, { id: String(args.id), revision: args.revision });
      return ctx.db.proposal.findUniqueOrThrow({ ...query, where: { id: p.id } });
    },
  }),
  denyProposal: t.prismaField({
    type: 'Proposal',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }), reason: t.arg.string() },
    resolve: async (query, _root, args, ctx) => {
      const p = await denyProposal(ctx, { id: String(args.id), reason: args.reason });
      return ctx.db.proposal.findUniqueOrThrow({ ...query, where: { id: p.id } });
    },
  }),
}));

const ProposalChangeRef = builder
  .objectRef<{ id: string; change: string; status: string; kind: string; deviceId: string | null }>('ProposalChange')
  .implement({
    description: 'A proposal was opened, revised, approved, denied, applied or failed.',
    fields: (t) => ({
      id: t.exposeID('id'),
      change: t.exposeString('change', { description: 'opened | updated | approved | denied | applied | failed' }),
      status: t.field({ type: ProposalStatusEnum, resolve: (c) => c.status as never }),
      proposal: t.prismaField({
        type: 'Proposal',
        nullable: true,
        resolve: (query, c, _args, ctx) => ctx.db.proposal.findUnique({ ...query, where: { id: c.id } }),
      }),
    }),
  });

builder.subscriptionFields((t) => ({
  proposalChanged: t.field({
    type: ProposalChangeRef,
    authScopes: { user: true },
    description:
      "Changes to the tenant's proposals, optionally only one proposal, one device's, one kind or one status.",
    args: { id: t.arg.id(), deviceId: t.arg.id(), kind: t.arg.string(), status: t.arg({ type: ProposalStatusEnum }) },
    subscribe: (_root, args, ctx) => {
      const me = requireUser(ctx);
      return pipe(
        ctx.rt.pubsub.subscribe('proposalChanged', me.tenantId),
        filterIterable(
          (m) =>
            (!args.id || m.id === String(args.id)) &&
            (!args.deviceId || m.deviceId === String(args.deviceId)) &&
            (!args.kind || m.kind === args.kind) &&
            (!args.status || m.status === args.status),
        ),
      );
    },
    resolve: (m) => m as never,
  }),
}));
