/**
 * GraphQL of paging notifications: the caller's contact methods and notification rules (`viewer`), their
 * in-app inbox with its unread count, every notification of an alert's group (`Alert.notifications`,
 * `AlertGroup.notifications`),
 * test sends, and the live `notificationChanged` subscription. Everyone manages only their own methods
 * and rules; secrets are write-only (a webhook's signing secret is shown once, on create).
 */
import { filter as filterIterable, pipe } from 'graphql-yoga';
import { builder, upperCaseValues } from './builder.js';
import { Viewer } from './users.js';
import { NotificationConnection, PAGE } from './connections.js';
import { requireUser } from '../src/context.js';
import {
  createContactMethod,
  deleteContactMethod,
  hasSecret,
  updateContactMethod,
} from '../src/notifications/contact-methods.js';
import {
  createNotificationRule,
  deleteNotificationRule,
  updateNotificationRule,
  URGENCIES,
} from '../src/notifications/rules.js';
import { inboxUnreadCount, inboxWhere, markInboxRead, sendTestNotification } from '../src/notifications/inbox.js';

export const ContactMethodKindEnum = builder.enumType('ContactMethodKind', {
  values: upperCaseValues({
    email: { description: 'Email over SMTP (SMTP_URL).' },
    ntfy: { description: 'Push through an ntfy server (self-hostable): server URL, topic, optional token.' },
    slack: { description: 'A Slack incoming webhook.' },
    mattermost: { description: 'A Mattermost incoming webhook.' },
    teams: { description: 'A Microsoft Teams Workflows webhook (Adaptive Card).' },
    discord: { description: 'A Discord webhook.' },
    webhook: { description: 'A signed webhook (X-Service-Signature and Standard Webhooks headers).' },
    inbox: { description: 'The in-app inbox of the console (always on).' },
  } as const),
});

export const NotificationStatusEnum = builder.enumType('NotificationStatus', {
  description:
    'PENDING: waiting for its delay or a retry; SENT; FAILED: retries stopped (see error); SKIPPED: the group was no longer firing when it was due.',
  values: upperCaseValues(['pending', 'sent', 'failed', 'skipped'] as const),
});

export const UrgencyEnum = builder.enumType('Urgency', {
  description: "HIGH: the policy's high-urgency severities (critical by default); LOW: the others.",
  values: upperCaseValues(URGENCIES),
});

builder.prismaObject('ContactMethod', {
  description: 'Where a person can be reached. Secrets are write-only.',
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.expose('kind', { type: ContactMethodKindEnum }),
    name: t.exposeString('name'),
    address: t.exposeString('address', {
      description:
        'Email address, ntfy server URL or webhook URL; for chat webhooks only the origin (the URL is the secret).',
    }),
    topic: t.exposeString('topic', { nullable: true, description: 'The ntfy topic.' }),
    enabled: t.exposeBoolean('enabled'),
    hasSecret: t.boolean({
      description: 'A secret (ntfy token, chat webhook URL, signing secret) is stored, sealed; it is never shown.',
      select: { secretSealed: true },
      resolve: (m) => hasSecret(m),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

builder.prismaObject('NotificationRule', {
  description: 'Notify by this contact method this many minutes after being paged, for pages of this urgency.',
  fields: (t) => ({
    id: t.exposeID('id'),
    urgency: t.field({ type: UrgencyEnum, select: { urgency: true }, resolve: (r) => r.urgency as 'high' | 'low' }),
    delayMinutes: t.exposeInt('delayMinutes'),
    contactMethod: t.relation('contactMethod'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.prismaObject('Notification', {
  description: 'One notification of one person by one method: to whom, how, when, with what result and latency.',
  fields: (t) => ({
    id: t.exposeID('id'),
    user: t.relation('user'),
    kind: t.expose('kind', { type: ContactMethodKindEnum }),
    contactMethod: t.relation('contactMethod', { nullable: true }),
    groupId: t.exposeID('groupId', { nullable: true }),
    alert: t.prismaField({
      type: 'Alert',
      nullable: true,
      select: { alertId: true },
      resolve: (query, n, _a, ctx) =>
        n.alertId ? ctx.db.alert.findUnique({ ...query, where: { id: n.alertId } }) : null,
    }),
    step: t.exposeInt('step', { nullable: true }),
    round: t.exposeInt('round', { nullable: true }),
    reason: t.exposeString('reason', {
      description:
        'escalation, escalate_now, reassign, repeat, test, or a routed group notification: group_update (alerts that joined, group_interval) or group_repeat (repeat_interval).',
    }),
    status: t.expose('status', { type: NotificationStatusEnum }),
    attempts: t.exposeInt('attempts'),
    error: t.exposeString('error', { nullable: true }),
    dueAt: t.expose('dueAt', { type: 'DateTime' }),
    sentAt: t.expose('sentAt', { type: 'DateTime', nullable: true }),
    latencyMs: t.exposeInt('latencyMs', { nullable: true, description: 'From the page to the send, in ms.' }),
    readAt: t.expose('readAt', { type: 'DateTime', nullable: true, description: 'Inbox items: when read.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the person was paged.' }),
  }),
});

const MAX_INBOX = 100;

builder.objectFields(Viewer, (t) => ({
  contactMethods: t.prismaField({
    type: ['ContactMethod'],
    resolve: (query, v, _a, ctx) =>
      ctx.db.contactMethod.findMany({ ...query, where: { userId: v.userId }, orderBy: { createdAt: 'asc' } }),
  }),
  notificationRules: t.prismaField({
    type: ['NotificationRule'],
    args: { urgency: t.arg({ type: UrgencyEnum }) },
    resolve: (query, v, args, ctx) =>
      ctx.db.notificationRule.findMany({
        ...query,
        where: { userId: v.userId, ...(args.urgency ? { urgency: args.urgency } : {}) },
        orderBy: [{ urgency: 'asc' }, { delayMinutes: 'asc' }, { createdAt: 'asc' }],
      }),
  }),
  inbox: t.prismaField({
    type: ['Notification'],
    description: `The caller's pages in the in-app inbox, newest first (at most ${MAX_INBOX}).`,
    args: { unreadOnly: t.arg.boolean({ defaultValue: false }), first: t.arg.int({ defaultValue: 50 }) },
    resolve: (query, v, args, ctx) =>
      ctx.db.notification.findMany({
        ...query,
        where: { ...inboxWhere(v.userId), ...(args.unreadOnly ? { readAt: null } : {}) },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: Math.min(Math.max(args.first ?? 50, 1), MAX_INBOX),
      }),
  }),
  inboxUnreadCount: t.int({ resolve: (_v, _a, ctx) => inboxUnreadCount(ctx) }),
}));

builder.prismaObjectField('Alert', 'notifications', (t) =>
  t.prismaField({
    type: ['Notification'],
    description: "Every notification of the alert's group (who was paged, how, when, with what result), oldest first.",
    select: { groupId: true },
    resolve: (query, alert, _a, ctx) =>
      alert.groupId
        ? ctx.db.notification.findMany({
            ...query,
            where: { groupId: alert.groupId },
            orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
            take: 500,
          })
        : [],
  }),
);

builder.prismaObjectField('AlertGroup', 'notifications', (t) =>
  t.relatedConnection(
    'notifications',
    {
      cursor: 'id',
      totalCount: true,
      ...PAGE,
      description: 'Every notification of the group (who was paged, how, when, with what result), oldest first.',
      query: () => ({ orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    },
    NotificationConnection,
  ),
);

const ContactMethodInput = builder.inputType('ContactMethodInput', {
  fields: (t) => ({
    kind: t.field({ type: ContactMethodKindEnum, required: true }),
    name: t.string({ required: true }),
    address: t.string({
      description: 'EMAIL: the address; NTFY: the server URL; chat kinds and WEBHOOK: the URL to POST to; INBOX: none.',
    }),
    topic: t.string({ description: 'NTFY: the topic.' }),
    token: t.string({ description: 'NTFY: an access token (optional; sealed, never shown).' }),
    enabled: t.boolean({ defaultValue: true }),
  }),
});

const UpdateContactMethodInput = builder.inputType('UpdateContactMethodInput', {
  fields: (t) => ({
    name: t.string(),
    address: t.string(),
    topic: t.string(),
    token: t.string({ description: 'NTFY: a new token; an empty string removes it.' }),
    enabled: t.boolean(),
  }),
});

const CreatedContactMethod = builder
  .objectRef<{ id: string; secret: string | null }>('CreatedContactMethod')
  .implement({
    description: "A new contact method; a WEBHOOK's signing secret is shown this once.",
    fields: (t) => ({
      id: t.exposeID('id'),
      secret: t.exposeString('secret', { nullable: true, description: 'WEBHOOK: `whsec_<base64>`, shown once.' }),
      contactMethod: t.prismaField({
        type: 'ContactMethod',
        resolve: (query, c, _a, ctx) => ctx.db.contactMethod.findUniqueOrThrow({ ...query, where: { id: c.id } }),
      }),
    }),
  });

const NotificationRuleInput = builder.inputType('NotificationRuleInput', {
  fields: (t) => ({
    urgency: t.field({ type: UrgencyEnum, required: true }),
    contactMethodId: t.id({ required: true }),
    delayMinutes: t.int({ defaultValue: 0, description: 'Minutes after the page (0: at once).' }),
  }),
});

const UpdateNotificationRuleInput = builder.inputType('UpdateNotificationRuleInput', {
  fields: (t) => ({ urgency: t.field({ type: UrgencyEnum }), contactMethodId: t.id(), delayMinutes: t.int() }),
});

builder.mutationFields((t) => ({
  createContactMethod: t.field({
    type: CreatedContactMethod,
    authScopes: { user: true },
    args: { input: t.arg({ type: ContactMethodInput, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      const { contactMethod, secret } = await createContactMethod(ctx, input);
      return { id: contactMethod.id, secret };
    },
  }),
  updateContactMethod: t.prismaField({
    type: 'ContactMethod',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateContactMethodInput, required: true }) },
    resolve: async (query, _r, { id, input }, ctx) => {
      const m = await updateContactMethod(ctx, String(id), input);
      return ctx.db.contactMethod.findUniqueOrThrow({ ...query, where: { id: m.id } });
    },
  }),
  deleteContactMethod: t.id({
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, { id }, ctx) => (await deleteContactMethod(ctx, String(id))).id,
  }),
  testContactMethod: t.prismaField({
    type: 'Notification',
    authScopes: { user: true },
    description: 'Sends a test notification by this method now; the notification shows how it went.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _r, { id }, ctx) => {
      const n = await sendTestNotification(ctx, String(id));
      return ctx.db.notification.findUniqueOrThrow({ ...query, where: { id: n.id } });
    },
  }),
  createNotificationRule: t.prismaField({
    type: 'NotificationRule',
    authScopes: { user: true },
    args: { input: t.arg({ type: NotificationRuleInput, required: true }) },
    resolve: async (query, _r, { input }, ctx) => {
      const r = await createNotificationRule(ctx, { ...input, contactMethodId: String(input.contactMethodId) });
      return ctx.db.notificationRule.findUniqueOrThrow({ ...query, where: { id: r.id } });
    },
  }),
  updateNotificationRule: t.prismaField({
    type: 'NotificationRule',
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateNotificationRuleInput, required: true }) },
    resolve: async (query, _r, { id, input }, ctx) => {
      const r = await updateNotificationRule(ctx, String(id), {
        urgency: input.urgency ?? undefined,
        contactMethodId: input.contactMethodId ? String(input.contactMethodId) : undefined,
        delayMinutes: input.delayMinutes,
      });
      return ctx.db.notificationRule.findUniqueOrThrow({ ...query, where: { id: r.id } });
    },
  }),
  deleteNotificationRule: t.id({
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, { id }, ctx) => (await deleteNotificationRule(ctx, String(id))).id,
  }),
  markInboxRead: t.int({
    authScopes: { user: true },
    description: 'Marks these inbox items read (all unread ones without `ids`); returns how many changed.',
    args: { ids: t.arg.idList() },
    resolve: (_r, { ids }, ctx) => markInboxRead(ctx, ids ? ids.map(String) : null),
  }),
}));

const NotificationChange = builder
  .objectRef<{ id: string; userId: string; groupId: string | null; kind: string; status: string }>('NotificationChange')
  .implement({
    fields: (t) => ({
      id: t.exposeID('id'),
      userId: t.exposeID('userId'),
      groupId: t.exposeID('groupId', { nullable: true }),
      kind: t.field({ type: ContactMethodKindEnum, resolve: (p) => p.kind as never }),
      status: t.field({ type: NotificationStatusEnum, resolve: (p) => p.status as never }),
    }),
  });

builder.subscriptionFields((t) => ({
  notificationChanged: t.field({
    type: NotificationChange,
    authScopes: { user: true },
    description:
      "Fires when a notification is planned, sent, skipped, fails or is read: the caller's own (the inbox), or with `groupId` every one of that group.",
    args: { groupId: t.arg.id() },
    subscribe: (_root, args, ctx) => {
      const me = requireUser(ctx);
      return pipe(
        ctx.rt.pubsub.subscribe('notificationChanged', me.tenantId),
        filterIterable((p: Record<string, unknown>) =>
          args.groupId ? p.groupId === String(args.groupId) : p.userId === me.userId,
        ),
      );
    },
    resolve: (p) => p as never,
  }),
}));
