/**
 * GraphQL of the events area: the timeline (`events` connection, `event`), the live `eventAdded`
 * subscription, signed inbound webhooks, and the tenant's ingest keys.
 */
import { filter as filterIterable, pipe } from 'graphql-yoga';
import { builder, found, SeverityEnum, upperCaseValues, requestOrigin, NodeRef } from './builder.js';
import { EventConnection } from './connections.js';
import { requireUser } from '../src/context.js';
import { matchesEventFilter, TIMELINE_LIMITS, type EventFilter } from '../src/events/filter.js';
import { NEWEST_FIRST, timelinePage, timelineWhere } from '../src/events/timeline.js';
import type { SerializedEvent } from '../src/events/announce.js';
import {
  createInboundWebhook,
  deleteInboundWebhook,
  inboundWebhookUrl,
  revealInboundWebhookSecret,
  rotateInboundWebhookSecret,
  updateInboundWebhook,
} from '../src/events/inbound-webhooks.js';
import { listIngestKeys, rotateTenantIngestKey } from '../src/tenants/ingest-keys.js';

export const ReceivedViaEnum = builder.enumType('ReceivedVia', {
  values: upperCaseValues(['ingest', 'webhook', 'sot', 'system'] as const),
});

export const EventRef = builder.prismaObject('Event', {
  interfaces: [NodeRef],
  description: 'One entry on the timeline. Both envelope shapes map onto it (`kind` is stored as `type`).',
  // Always loaded: the id; every column (labels and payload too) only when a query asks for it (schema/loaded-scalars.ts).
  select: { id: true },
  fields: (t) => ({
    id: t.exposeID('id'),
    type: t.exposeString('type', { description: 'The `type` of shape A or the `kind` of shape B.' }),
    module: t.exposeString('module', { nullable: true }),
    source: t.exposeString('source'),
    summary: t.exposeString('summary', { nullable: true }),
    severity: t.expose('severity', { type: SeverityEnum }),
    labels: t.expose('labels', { type: 'JSON' }),
    payload: t.expose('payload', { type: 'JSON' }),
    receivedVia: t.expose('receivedVia', { type: ReceivedViaEnum }),
    receivedAt: t.expose('receivedAt', { type: 'DateTime' }),
    evaluatedAt: t.expose('evaluatedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When alert rules finished with this event; null until then.',
    }),
    evaluationAttempts: t.exposeInt('evaluationAttempts', {
      description:
        'Failed rule-evaluation attempts. At 3 the event is set aside (never evaluated, kept with its error).',
    }),
    evaluationError: t.exposeString('evaluationError', {
      nullable: true,
      description: 'The last rule-evaluation error of this event, if any.',
    }),
  }),
});

const EventFilterInput = builder.inputType('EventFilter', {
  description: 'Timeline filter; every given condition must hold.',
  fields: (t) => ({
    module: t.string(),
    severities: t.field({ type: [SeverityEnum] }),
    type: t.string({ description: 'Exact type, or a glob where `*` matches any run of characters (`deploy.*`).' }),
    source: t.string(),
    labels: t.field({
      type: 'JSON',
      description: 'Object of label → value; events must carry all of them (subset match).',
    }),
    search: t.string({ description: 'Case-insensitive text in summary, type or source.' }),
    sinceHours: t.int({
      description: `Only events received in the last N hours (1 to ${TIMELINE_LIMITS.maxSinceHours}; the \`events\` query uses ${TIMELINE_LIMITS.defaultSinceHours} when it is not given).`,
    }),
  }),
});

function toFilter(
  input:
    | {
        module?: string | null;
        severities?: readonly string[] | null;
        type?: string | null;
        source?: string | null;
        labels?: unknown;
        search?: string | null;
        sinceHours?: number | null;
      }
    | null
    | undefined,
): EventFilter {
  if (!input) return {};
  return {
    ...input,
    severities: input.severities as EventFilter['severities'],
    labels: input.labels as EventFilter['labels'],
  };
}

/** The filter with the default time window when it names none. */
function windowed(f: EventFilter): EventFilter {
  return { ...f, sinceHours: f.sinceHours ?? TIMELINE_LIMITS.defaultSinceHours };
}

builder.queryFields((t) => ({
  events: t.prismaConnection(
    {
      type: 'Event',
      cursor: 'id',
      authScopes: { user: true },
      defaultSize: TIMELINE_LIMITS.defaultLimit,
      maxSize: TIMELINE_LIMITS.maxLimit,
      description: `The tenant's timeline, newest first (pages of at most ${TIMELINE_LIMITS.maxLimit}), over the last \`filter.sinceHours\` hours: ${TIMELINE_LIMITS.defaultSinceHours} unless given, as GET /events (every read is bounded in time).`,
      args: { filter: t.arg({ type: EventFilterInput }) },
      totalCount: (_conn, args, ctx) =>
        ctx.db.event.count({ where: timelineWhere(windowed(toFilter(args.filter)), ctx.rt.clock.now()) }),
      resolve: async (query, _root, args, ctx) =>
        ctx.db.event.findMany({
          ...(await timelinePage(ctx, query, timelineWhere(windowed(toFilter(args.filter)), ctx.rt.clock.now()))),
          orderBy: NEWEST_FIRST,
        }),
    },
    EventConnection,
  ),
  event: t.prismaField({
    type: 'Event',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) =>
      found('Event', await ctx.db.event.findUnique({ ...query, where: { id: String(args.id) } })),
  }),
}));

builder.subscriptionFields((t) => ({
  eventAdded: t.field({
    type: EventRef,
    authScopes: { user: true },
    description: 'Every event stored for the tenant from now on (on any API node) that passes the filter.',
    args: { filter: t.arg({ type: EventFilterInput }) },
    subscribe: (_root, args, ctx) => {
      const me = requireUser(ctx);
      const f = toFilter(args.filter);
      timelineWhere(f, ctx.rt.clock.now()); // 422-style BAD_USER_INPUT before subscribing
      return pipe(
        ctx.rt.pubsub.subscribe('eventAdded', me.tenantId),
        filterIterable((payload) => matchesEventFilter(payload as SerializedEvent, f, ctx.rt.clock.now())),
      );
    },
    resolve: (payload) => payload as never,
  }),
}));

const InboundWebhookKindEnum = builder.enumType('InboundWebhookKind', {
  description:
    'EVENTS: envelope shape B at /api/v1/webhooks/<slug>; SOT: NetBox-style device changes at /api/v1/sot/webhooks/<slug>.',
  values: upperCaseValues(['events', 'sot'] as const),
});

const REQUIRE_SW =
  'Replay protection: accept only the Standard Webhooks form (webhook-id, webhook-timestamp within 5 minutes, webhook-signature = v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">), each webhook-id once in 24 hours (409 WEBHOOK_REPLAYED). Off: X-Service-Signature over the body, as SPEC says.';
const REJECT_REPEATS =
  'Replay protection for senders that cannot timestamp: the same X-Service-Signature twice within 5 minutes is refused (409 WEBHOOK_REPLAYED).';

builder.prismaObject('InboundWebhook', {
  interfaces: [NodeRef],
  description: 'A signed inbound URL. The secret is only readable through reveal/rotate.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    slug: t.exposeString('slug'),
    kind: t.expose('kind', { type: InboundWebhookKindEnum }),
    url: t.string({ resolve: (hook, _args, ctx) => inboundWebhookUrl(ctx.rt, hook, requestOrigin(ctx)) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    previousSecretValidUntil: t.expose('previousValidUntil', {
      type: 'DateTime',
      nullable: true,
      description: 'After a rotation: when the previous secret stops verifying.',
    }),
    requireStandardWebhooks: t.exposeBoolean('requireStandardWebhooks', { description: REQUIRE_SW }),
    rejectRepeatedSignature: t.exposeBoolean('rejectRepeatedSignature', { description: REJECT_REPEATS }),
  }),
});

const InboundWebhookWithSecret = builder
  .objectRef<{
    id: string;
    name: string;
    slug: string;
    kind: 'events' | 'sot';
    secret: string;
    createdAt: Date;
    previousValidUntil: Date | null;
    requireStandardWebhooks: boolean;
    rejectRepeatedSignature: boolean;
  }>('InboundWebhookWithSecret')
  .implement({
    description: 'An inbound webhook with its signing secret in cleartext (creation and rotation only).',
    fields: (t) => ({
      id: t.exposeID('id'),
      name: t.exposeString('name'),
      slug: t.exposeString('slug'),
      kind: t.expose('kind', { type: InboundWebhookKindEnum }),
      url: t.string({ resolve: (hook, _args, ctx) => inboundWebhookUrl(ctx.rt, hook, requestOrigin(ctx)) }),
      secret: t.exposeString('secret', { description: 'Key of the hex HMAC-SHA256 sent in X-Service-Signature.' }),
      createdAt: t.expose('createdAt', { type: 'DateTime' }),
      previousSecretValidUntil: t.expose('previousValidUntil', { type: 'DateTime', nullable: true }),
      requireStandardWebhooks: t.exposeBoolean('requireStandardWebhooks', { description: REQUIRE_SW }),
      rejectRepeatedSignature: t.exposeBoolean('rejectRepeatedSignature', { description: REJECT_REPEATS }),
    }),
  });

const CreateInboundWebhookInput = builder.inputType('CreateInboundWebhookInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    kind: t.field({ type: InboundWebhookKindEnum, defaultValue: 'events' }),
    requireStandardWebhooks: t.boolean({ description: REQUIRE_SW }),
    rejectRepeatedSignature: t.boolean({ description: REJECT_REPEATS }),
  }),
});

const UpdateInboundWebhookInput = builder.inputType('UpdateInboundWebhookInput', {
  fields: (t) => ({
    name: t.string(),
    requireStandardWebhooks: t.boolean({ description: REQUIRE_SW }),
    rejectRepeatedSignature: t.boolean({ description: REJECT_REPEATS }),
  }),
});

builder.queryFields((t) => ({
  inboundWebhooks: t.prismaField({
    type: ['InboundWebhook'],
    authScopes: { user: true },
    args: { kind: t.arg({ type: InboundWebhookKindEnum }) },
    resolve: (query, _root, args, ctx) =>
      ctx.db.inboundWebhook.findMany({
        ...query,
        where: args.kind ? { kind: args.kind } : {},
        orderBy: { createdAt: 'asc' },
      }),
  }),
}));

builder.mutationFields((t) => ({
  createInboundWebhook: t.field({
    type: InboundWebhookWithSecret,
    authScopes: { admin: true },
    args: { input: t.arg({ type: CreateInboundWebhookInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      const { webhook, secret } = await createInboundWebhook(ctx, { ...input, kind: input.kind ?? 'events' });
      return { ...webhook, secret };
    },
  }),
  updateInboundWebhook: t.prismaField({
    type: 'InboundWebhook',
    authScopes: { admin: true },
    description: 'Renames an inbound webhook or changes its replay protection; omitted fields stay.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateInboundWebhookInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const hook = await updateInboundWebhook(ctx, String(args.id), args.input);
      return ctx.db.inboundWebhook.findUniqueOrThrow({ ...query, where: { id: hook.id } });
    },
  }),
  revealInboundWebhookSecret: t.string({
    authScopes: { admin: true },
    description: 'The current signing secret in cleartext. A mutation so that every reveal is audited.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => revealInboundWebhookSecret(ctx, String(args.id)),
  }),
  rotateInboundWebhookSecret: t.field({
    type: InboundWebhookWithSecret,
    authScopes: { admin: true },
    description: 'A new signing secret; the previous one keeps verifying for 24 hours.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const { webhook, secret } = await rotateInboundWebhookSecret(ctx, String(args.id));
      return { ...webhook, secret };
    },
  }),
  deleteInboundWebhook: t.id({
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => (await deleteInboundWebhook(ctx, String(args.id))).id,
  }),
}));

builder.prismaObject('IngestKey', {
  description: 'A key for POST /events (X-Service-Key). Only its first characters are stored in the clear.',
  fields: (t) => ({
    id: t.exposeID('id'),
    keyPrefix: t.exposeString('keyPrefix'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    validUntil: t.expose('validUntil', {
      type: 'DateTime',
      nullable: true,
      description: 'Set when rotated away: the key works until then.',
    }),
  }),
});

const RotatedIngestKey = builder
  .objectRef<{ id: string; key: string; previousValidUntil: Date }>('RotatedIngestKey')
  .implement({
    fields: (t) => ({
      key: t.exposeString('key', { description: 'The new key (sik_…), shown this once.' }),
      ingestKey: t.prismaField({
        type: 'IngestKey',
        resolve: (query, r, _args, ctx) => ctx.db.ingestKey.findUniqueOrThrow({ ...query, where: { id: r.id } }),
      }),
      previousValidUntil: t.expose('previousValidUntil', {
        type: 'DateTime',
        description: 'Older keys keep working until then (24 hours).',
      }),
    }),
  });

builder.queryFields((t) => ({
  ingestKeys: t.prismaField({
    type: ['IngestKey'],
    authScopes: { admin: true },
    description: "The tenant's ingest keys that still work, newest first.",
    resolve: async (query, _root, _args, ctx) => {
      const ids = (await listIngestKeys(ctx)).map((k) => k.id);
      return ctx.db.ingestKey.findMany({ ...query, where: { id: { in: ids } }, orderBy: { createdAt: 'desc' } });
    },
  }),
}));

builder.mutationFields((t) => ({
  rotateIngestKey: t.field({
    type: RotatedIngestKey,
    authScopes: { admin: true },
    description: 'Mints a new ingest key; every older key keeps working for 24 hours.',
    resolve: async (_root, _args, ctx) => {
      const rotated = await rotateTenantIngestKey(ctx);
      return { id: rotated.id, key: rotated.cleartext, previousValidUntil: rotated.previousValidUntil };
    },
  }),
}));
