/**
 * GraphQL of the operator's overview (the console's home page): live alerts by severity and age, the
 * noisiest sources and rules, and MTTA/MTTR per week, each computed in SQL by src/alerts/overview.ts.
 */
import { builder, SeverityEnum, upperCaseValues } from './builder.js';
import {
  AGE_BUCKETS,
  liveAlertBuckets,
  noisiestRules,
  noisiestSources,
  weeklyResponseTimes,
  type LiveAlertBucket,
  type NoisyRule,
  type NoisySource,
  type WeeklyResponseTimes,
} from '../src/alerts/overview.js';

const AlertAgeEnum = builder.enumType('AlertAge', {
  description: 'How long ago an alert opened: under an hour, under a day, under a week, or older.',
  values: upperCaseValues(AGE_BUCKETS),
});

const LiveAlertBucketRef = builder.objectRef<LiveAlertBucket>('LiveAlertBucket').implement({
  description: 'Alerts not yet resolved, of one severity and age.',
  fields: (t) => ({
    severity: t.field({ type: SeverityEnum, resolve: (b) => b.severity }),
    age: t.field({ type: AlertAgeEnum, resolve: (b) => b.age }),
    live: t.exposeInt('live', { description: 'Open, acknowledged or snoozed.' }),
    unacknowledged: t.exposeInt('unacknowledged', { description: 'Still open: nobody acknowledged them.' }),
  }),
});

const NoisySourceRef = builder.objectRef<NoisySource>('NoisySource').implement({
  fields: (t) => ({
    source: t.exposeString('source'),
    alerts: t.exposeInt('alerts', { description: 'Alerts opened in the window.' }),
    events: t.exposeInt('events', { description: 'Events those alerts counted.' }),
  }),
});

const NoisyRuleRef = builder.objectRef<NoisyRule>('NoisyRule').implement({
  fields: (t) => ({
    ruleId: t.exposeID('ruleId', { nullable: true }),
    ruleName: t.exposeString('ruleName'),
    alerts: t.exposeInt('alerts'),
    events: t.exposeInt('events'),
  }),
});

const WeeklyResponseTimesRef = builder.objectRef<WeeklyResponseTimes>('WeeklyResponseTimes').implement({
  description: 'Alerts opened in one week (Monday 00:00 UTC) and how fast people acknowledged and resolved them.',
  fields: (t) => ({
    weekStart: t.expose('weekStart', { type: 'DateTime' }),
    opened: t.exposeInt('opened'),
    acknowledged: t.exposeInt('acknowledged'),
    mttaSeconds: t.exposeInt('mttaSeconds', {
      nullable: true,
      description: 'Mean seconds from opening to the first acknowledgement (alert timelines); null with none.',
    }),
    resolved: t.exposeInt('resolved'),
    mttrSeconds: t.exposeInt('mttrSeconds', {
      nullable: true,
      description: 'Mean seconds from opening to resolution (alert timelines); null with none.',
    }),
  }),
});

const AlertOverviewRef = builder.objectRef<Record<string, never>>('AlertOverview').implement({
  description: "The tenant's alerting at a glance; each field is computed when asked for.",
  fields: (t) => ({
    live: t.field({
      type: [LiveAlertBucketRef],
      description: 'Alerts not resolved, by severity and age (empty buckets left out).',
      resolve: (_o, _args, ctx) => liveAlertBuckets(ctx),
    }),
    noisiestSources: t.field({
      type: [NoisySourceRef],
      args: { days: t.arg.int({ defaultValue: 7 }), first: t.arg.int({ defaultValue: 5 }) },
      resolve: (_o, args, ctx) => noisiestSources(ctx, args.days ?? 7, args.first ?? 5),
    }),
    noisiestRules: t.field({
      type: [NoisyRuleRef],
      args: { days: t.arg.int({ defaultValue: 7 }), first: t.arg.int({ defaultValue: 5 }) },
      resolve: (_o, args, ctx) => noisiestRules(ctx, args.days ?? 7, args.first ?? 5),
    }),
    responseTimes: t.field({
      type: [WeeklyResponseTimesRef],
      description: 'MTTA and MTTR per week, oldest first, every week present.',
      args: { weeks: t.arg.int({ defaultValue: 8 }) },
      resolve: (_o, args, ctx) => weeklyResponseTimes(ctx, args.weeks ?? 8),
    }),
  }),
});

builder.queryFields((t) => ({
  alertOverview: t.field({
    type: AlertOverviewRef,
    authScopes: { user: true },
    description: 'Live alerts by severity and age, the noisiest sources and rules, MTTA/MTTR per week.',
    resolve: () => ({}),
  }),
}));
