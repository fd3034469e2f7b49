/**
 * GraphQL of outbound webhooks: the webhooks and their triggers, the delivery history with every
 * attempt, secret reveal/rotation, redeliver, and the `deliveryChanged` subscription. Reading is open to
 * every user of the tenant; writes and secrets are for admins.
 */
import { builder, found, SeverityEnum, upperCaseValues, NodeRef } from './builder.js';
import { requireUser } from '../src/context.js';
import { TRIGGER_TOPICS, storedTriggers, type WebhookTrigger } from '../src/webhooks/triggers.js';
import { PayloadConditionInput, PayloadConditionRef } from './rules.js';
import {
  confirmWebhookSecretRotation,
  createOutboundWebhook,
  deleteOutboundWebhook,
  revealWebhookSecret,
  rotateWebhookSecret,
  updateOutboundWebhook,
  type RevealedSecret,
} from '../src/webhooks/webhooks.js';
import { redeliverDelivery } from '../src/deliveries/redeliver.js';
import { deliveryChanges } from '../src/deliveries/announce.js';

const TriggerOnEnum = builder.enumType('WebhookTriggerOn', {
  description: 'What fires a webhook: an alert or proposal state change, or an event matching filters (EVENT).',
  values: Object.fromEntries(
    Object.entries(TRIGGER_TOPICS).map(([k, topic]) => [
      k,
      { value: k, description: `The \`${topic}\` announcement.` },
    ]),
  ) as unknown as Record<keyof typeof TRIGGER_TOPICS, { value: keyof typeof TRIGGER_TOPICS }>,
});

export const DeliveryStatusEnum = builder.enumType('DeliveryStatus', {
  description:
    'PENDING: not sent yet; RETRYING: failed, another attempt is scheduled; DELIVERED: a 2xx arrived; FAILED: retries stopped.',
  values: upperCaseValues(['pending', 'retrying', 'delivered', 'failed'] as const),
});

const TriggerRef = builder.objectRef<WebhookTrigger>('WebhookTrigger').implement({
  fields: (t) => ({
    on: t.field({ type: TriggerOnEnum, resolve: (tr) => tr.on }),
    severities: t.field({ type: [SeverityEnum], nullable: true, resolve: (tr) => tr.severities ?? null }),
    kinds: t.stringList({ nullable: true, description: 'Proposal kinds.', resolve: (tr) => tr.kinds ?? null }),
    typeGlob: t.string({
      nullable: true,
      description:
        'Event type glob, as in alert rules: `*` matches within one dot-separated segment, `**` across segments, `?` one character.',
      resolve: (tr) => tr.typeGlob ?? null,
    }),
    labels: t.field({
      type: 'JSON',
      nullable: true,
      description: 'Labels that must all be present with these values.',
      resolve: (tr) => tr.labels ?? null,
    }),
    payloadConditions: t.field({
      type: [PayloadConditionRef],
      nullable: true,
      resolve: (tr) => tr.payloadConditions ?? null,
    }),
  }),
});

const TriggerInput = builder.inputType('WebhookTriggerInput', {
  description:
    'ALERT_* accept severities, labels, payloadConditions; PROPOSAL_* accept kinds; EVENT accepts severities, typeGlob, labels, payloadConditions.',
  fields: (t) => ({
    on: t.field({ type: TriggerOnEnum, required: true }),
    severities: t.field({ type: [SeverityEnum] }),
    kinds: t.stringList(),
    typeGlob: t.string(),
    labels: t.field({ type: 'JSON', description: 'An object of string values.' }),
    payloadConditions: t.field({ type: [PayloadConditionInput] }),
  }),
});

type TriggerInputShape = typeof TriggerInput.$inferInput;

function toTriggers(list: TriggerInputShape[]): WebhookTrigger[] {
  return list.map((t) => ({
    on: t.on,
    severities: t.severities ?? undefined,
    kinds: t.kinds ?? undefined,
    typeGlob: t.typeGlob ?? undefined,
    labels: (t.labels ?? undefined) as Record<string, string> | undefined,
    payloadConditions: t.payloadConditions?.map((c) => ({ path: c.path, op: c.op, value: c.value ?? undefined })),
  }));
}

builder.prismaObject('DeliveryAttempt', {
  description: 'One try of a delivery: what was sent and what came back.',
  fields: (t) => ({
    id: t.exposeID('id'),
    number: t.exposeInt('number'),
    requestHeaders: t.expose('requestHeaders', {
      type: 'JSON',
      description: 'Headers as sent (signatures included; no secret is ever sent).',
    }),
    responseStatus: t.exposeInt('responseStatus', { nullable: true }),
    responseBody: t.exposeString('responseBody', {
      nullable: true,
      description: 'The first 4 KiB of the response body.',
    }),
    durationMs: t.exposeInt('durationMs'),
    error: t.exposeString('error', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.prismaObject('Delivery', {
  interfaces: [NodeRef],
  description: 'One announced change sent to one webhook, with every attempt.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Also the `webhook-id` header and the body `id`: stable across retries.' }),
    webhook: t.relation('webhook'),
    topic: t.exposeString('topic'),
    status: t.expose('status', { type: DeliveryStatusEnum }),
    body: t.exposeString('body', { description: 'The exact request body bytes sent on every attempt.' }),
    attemptCount: t.exposeInt('attemptCount'),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true }),
    lastError: t.exposeString('lastError', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true }),
    failedAt: t.expose('failedAt', { type: 'DateTime', nullable: true }),
    attempts: t.relation('attempts', { query: { orderBy: { number: 'asc' } } }),
  }),
});

const MAX_SHOWN_DELIVERIES = 100;

builder.prismaObject('OutboundWebhook', {
  interfaces: [NodeRef],
  description: 'A receiver URL that gets signed POSTs when its triggers fire.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    url: t.exposeString('url'),
    enabled: t.exposeBoolean('enabled'),
    triggers: t.field({ type: [TriggerRef], resolve: (w) => storedTriggers(w.triggers) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    previousSecretValidUntil: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'After a rotation: until then deliveries are also signed with the previous secret.',
      resolve: (w, _a, ctx) =>
        w.previousValidUntil && w.previousValidUntil.getTime() > ctx.rt.clock.now().getTime()
          ? w.previousValidUntil
          : null,
    }),
    deliveries: t.relation('deliveries', {
      description: `The latest deliveries, newest first (at most ${MAX_SHOWN_DELIVERIES}).`,
      args: { status: t.arg({ type: DeliveryStatusEnum }), first: t.arg.int({ defaultValue: MAX_SHOWN_DELIVERIES }) },
      query: (args) => ({
        where: args.status ? { status: args.status } : {},
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: Math.min(Math.max(args.first ?? MAX_SHOWN_DELIVERIES, 1), MAX_SHOWN_DELIVERIES),
      }),
    }),
    lastFailure: t.relation('lastFailedDelivery', {
      nullable: true,
      description: 'The most recent delivery that ended failed (with its lastError).',
    }),
    lastFailureAt: t.expose('lastFailureAt', { type: 'DateTime', nullable: true }),
    lastFailureError: t.exposeString('lastFailureError', { nullable: true }),
    secretCleared: t.boolean({
      description:
        'In the answer of updateOutboundWebhook: true when the URL moved to another origin without the current secret, so the old secret was dropped (no grace) and a new one signs from now on (reveal it with revealOutboundWebhookSecret). False elsewhere.',
      resolve: (w) => (w as { secretCleared?: boolean }).secretCleared ?? false,
    }),
  }),
});

const CreatedWebhook = builder.objectRef<{ id: string; secret: string }>('CreatedOutboundWebhook').implement({
  description: 'A new webhook and its signing secret, shown this once (admins can reveal it later).',
  fields: (t) => ({
    id: t.exposeID('id'),
    secret: t.exposeString('secret', { description: '`whsec_<base64>`: the Standard Webhooks secret format.' }),
    webhook: t.prismaField({
      type: 'OutboundWebhook',
      resolve: (query, c, _args, ctx) => ctx.db.outboundWebhook.findUniqueOrThrow({ ...query, where: { id: c.id } }),
    }),
  }),
});

const RotationSigningEnum = builder.enumType('WebhookRotationSigning', {
  description: 'Which secret signs `X-Service-Signature` during the 24 hours after a rotation.',
  values: upperCaseValues({
    new_at_once: {
      description:
        'The new secret signs `X-Service-Signature` at once; the previous one signs `X-Service-Signature-Previous` (the default).',
    },
    old_until_confirmed: {
      description:
        'The previous secret keeps signing `X-Service-Signature` (the new one signs `X-Service-Signature-Next`) until `confirmWebhookSecretRotation` or the end of the 24 hours, whichever comes first.',
    },
  } as const),
});

const WebhookSecretRef = builder.objectRef<RevealedSecret>('WebhookSecret').implement({
  fields: (t) => ({
    webhookId: t.exposeID('webhookId'),
    secret: t.exposeString('secret'),
    previousSecretValidUntil: t.expose('previousSecretValidUntil', { type: 'DateTime', nullable: true }),
    awaitingConfirmation: t.exposeBoolean('awaitingConfirmation', {
      description:
        'True while the previous secret still signs `X-Service-Signature` (an `OLD_UNTIL_CONFIRMED` rotation not yet confirmed, within its 24 hours).',
    }),
  }),
});

const CreateInput = builder.inputType('CreateOutboundWebhookInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    url: t.string({ required: true }),
    triggers: t.field({ type: [TriggerInput], required: true }),
    enabled: t.boolean({ defaultValue: true }),
  }),
});

const UpdateInput = builder.inputType('UpdateOutboundWebhookInput', {
  fields: (t) => ({
    name: t.string(),
    url: t.string(),
    triggers: t.field({ type: [TriggerInput] }),
    enabled: t.boolean(),
    secret: t.string({
      description:
        'The current signing secret, given again to keep it when `url` moves to another origin (host, scheme or port); without it such a move makes a new secret (`secretCleared` in the answer). `********` does not count.',
    }),
  }),
});

builder.queryFields((t) => ({
  outboundWebhooks: t.prismaField({
    type: ['OutboundWebhook'],
    authScopes: { user: true },
    description: "The tenant's outbound webhooks, oldest first.",
    resolve: (query, _root, _args, ctx) => ctx.db.outboundWebhook.findMany({ ...query, orderBy: { createdAt: 'asc' } }),
  }),
  outboundWebhook: t.prismaField({
    type: 'OutboundWebhook',
    authScopes: { user: true },
    description: 'One outbound webhook with its latest deliveries and last failure.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) =>
      found('Webhook', await ctx.db.outboundWebhook.findUnique({ ...query, where: { id: String(args.id) } })),
  }),
  delivery: t.prismaField({
    type: 'Delivery',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) =>
      found('Delivery', await ctx.db.delivery.findUnique({ ...query, where: { id: String(args.id) } })),
  }),
}));

builder.mutationFields((t) => ({
  createOutboundWebhook: t.field({
    type: CreatedWebhook,
    authScopes: { admin: true },
    args: { input: t.arg({ type: CreateInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      const { webhook, secret } = await createOutboundWebhook(ctx, {
        name: input.name,
        url: input.url,
        triggers: toTriggers(input.triggers),
        enabled: input.enabled,
      });
      return { id: webhook.id, secret };
    },
  }),
  updateOutboundWebhook: t.prismaField({
    type: 'OutboundWebhook',
    authScopes: { admin: true },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateInput, required: true }) },
    resolve: async (query, _root, { id, input }, ctx) => {
      const hook = await updateOutboundWebhook(ctx, String(id), {
        ...input,
        triggers: input.triggers ? toTriggers(input.triggers) : null,
      });
      const row = await ctx.db.outboundWebhook.findUniqueOrThrow({ ...query, where: { id: hook.id } });
      return Object.assign(row, { secretCleared: hook.secretCleared });
    },
  }),
  deleteOutboundWebhook: t.id({
    authScopes: { admin: true },
    description: 'Deletes the webhook and its delivery history; returns its id.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => (await deleteOutboundWebhook(ctx, String(id))).id,
  }),
  revealOutboundWebhookSecret: t.field({
    type: WebhookSecretRef,
    authScopes: { admin: true },
    description: 'The current signing secret (a mutation so that every reveal is audited).',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => revealWebhookSecret(ctx, String(id)),
  }),
  rotateWebhookSecret: t.field({
    type: WebhookSecretRef,
    authScopes: { admin: true },
    description:
      "Issues a new signing secret. For 24 hours deliveries carry both secrets' signatures: two space-separated `v1,` entries in `webhook-signature`, and, as `signing` says, either the new secret in `X-Service-Signature` and the previous one in `X-Service-Signature-Previous` (`NEW_AT_ONCE`, the default), or the previous secret in `X-Service-Signature` and the new one in `X-Service-Signature-Next` until `confirmWebhookSecretRotation` (`OLD_UNTIL_CONFIRMED`). A receiver that verifies only `X-Service-Signature` keeps verifying with the old secret under `OLD_UNTIL_CONFIRMED` (give it the new secret, then confirm); under `NEW_AT_ONCE` it needs the new secret from the rotation on.",
    args: {
      id: t.arg.id({ required: true }),
      signing: t.arg({
        type: RotationSigningEnum,
        description: 'Which secret signs `X-Service-Signature` during the overlap; `NEW_AT_ONCE` when omitted.',
      }),
    },
    resolve: (_root, { id, signing }, ctx) => rotateWebhookSecret(ctx, String(id), signing ?? 'new_at_once'),
  }),
  confirmWebhookSecretRotation: t.field({
    type: WebhookSecretRef,
    authScopes: { admin: true },
    description:
      'After an `OLD_UNTIL_CONFIRMED` rotation, once receivers hold the new secret: the new secret signs `X-Service-Signature` from now on (the previous one moves to `X-Service-Signature-Previous` until its 24 hours end). Answers the current secret. Confirming again changes nothing; CONFLICT when no rotation is in its 24 hours.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => confirmWebhookSecretRotation(ctx, String(id)),
  }),
  redeliver: t.prismaField({
    type: 'Delivery',
    authScopes: { admin: true },
    description: 'Sends a delivered or failed delivery again (same body and webhook-id, a fresh retry window).',
    args: { deliveryId: t.arg.id({ required: true }) },
    resolve: async (query, _root, { deliveryId }, ctx) => {
      const d = await redeliverDelivery(ctx, String(deliveryId));
      return ctx.db.delivery.findUniqueOrThrow({ ...query, where: { id: d.id } });
    },
  }),
}));

interface DeliveryChangePayload {
  id: string;
  webhookId: string;
  topic: string;
  status: 'pending' | 'retrying' | 'delivered' | 'failed';
  attemptCount: number;
  lastError: string | null;
  nextAttemptAt: string | null;
  responseStatus: number | null;
}

const DeliveryChangeRef = builder.objectRef<DeliveryChangePayload>('DeliveryChange').implement({
  description: 'A delivery was created or changed state.',
  fields: (t) => ({
    id: t.exposeID('id'),
    webhookId: t.exposeID('webhookId'),
    topic: t.exposeString('topic'),
    status: t.field({ type: DeliveryStatusEnum, resolve: (c) => c.status }),
    attemptCount: t.exposeInt('attemptCount'),
    lastError: t.exposeString('lastError', { nullable: true }),
    nextAttemptAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.nextAttemptAt }),
    responseStatus: t.exposeInt('responseStatus', { nullable: true }),
    delivery: t.prismaField({
      type: 'Delivery',
      nullable: true,
      description: 'The delivery now (null if it was deleted meanwhile).',
      resolve: (query, c, _args, ctx) => ctx.db.delivery.findUnique({ ...query, where: { id: c.id } }),
    }),
  }),
});

builder.subscriptionFields((t) => ({
  deliveryChanged: t.field({
    type: DeliveryChangeRef,
    authScopes: { user: true },
    description:
      "Fires when a delivery of the caller's tenant is created or changes state (optionally for one webhook).",
    args: { webhookId: t.arg.id() },
    subscribe: (_root, args, ctx) => {
      const me = requireUser(ctx);
      return deliveryChanges(ctx.rt, me.tenantId, args.webhookId ? String(args.webhookId) : null);
    },
    resolve: (p) => p as unknown as DeliveryChangePayload,
  }),
}));
