/**
 * GraphQL of retention: how long the tenant's timeline is kept, and the admin's setting to shorten it.
 */
import { builder } from './builder.js';
import { eventRetentionOf, setEventRetention, type EventRetention } from '../src/history/tenant-retention.js';

const EventRetentionRef = builder.objectRef<EventRetention>('EventRetention').implement({
  description: "How long the tenant's timeline events are kept (older ones are removed by the hourly retention run).",
  fields: (t) => ({
    days: t.exposeInt('days'),
    defaultDays: t.exposeInt('defaultDays', {
      description: "The installation's EVENT_RETENTION_DAYS: the longest a tenant may keep events.",
    }),
    shortened: t.exposeBoolean('shortened'),
  }),
});

builder.queryFields((t) => ({
  eventRetention: t.field({
    type: EventRetentionRef,
    authScopes: { user: true },
    resolve: (_root, _args, ctx) => eventRetentionOf(ctx),
  }),
}));

builder.mutationFields((t) => ({
  setEventRetention: t.field({
    type: EventRetentionRef,
    authScopes: { admin: true },
    description:
      "Shortens how long this tenant's events are kept (1 to EVENT_RETENTION_DAYS days; null: the installation's setting).",
    args: { days: t.arg.int({ required: false }) },
    resolve: (_root, args, ctx) => setEventRetention(ctx, args.days ?? null),
  }),
}));
