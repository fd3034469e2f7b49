/**
 * GraphQL of a device's configuration loop: setting the intent (admins), the agent reporting the
 * observed configuration, queueing a reconcile (intent vs observed → a DriftReport), and the tenant's
 * review settings (whether the direct intent edit is allowed at all). The types
 * (IntentVersion, DriftReport, Device) are schema/devices.ts.
 */
import { builder } from './builder.js';
import { reportObservedConfig } from '../src/devices/devices.js';
import { setDeviceIntent } from '../src/devices/intent.js';
import { requestReconcile } from '../src/devices/reconcile.js';
import { reviewSettingsOf, setReviewSettings, type ReviewSettings } from '../src/devices/review-settings.js';
import { flagAuditBypassedReview } from '../src/audit/audit.js';

const ReviewSettingsRef = builder.objectRef<ReviewSettings>('ReviewSettings').implement({
  description: "The tenant's review rules for intent changes.",
  fields: (t) => ({
    requireProposals: t.exposeBoolean('requireProposals', {
      description:
        'Every intent change goes through a proposal a second person approves; the direct intent edit (setDeviceIntent, PUT /sot/devices/{id}/intent) answers 403 PROPOSAL_REQUIRED.',
    }),
  }),
});

const SetReviewSettingsInput = builder.inputType('SetReviewSettingsInput', {
  fields: (t) => ({
    requireProposals: t.boolean({ required: true }),
  }),
});

builder.queryFields((t) => ({
  reviewSettings: t.field({
    type: ReviewSettingsRef,
    authScopes: { user: true },
    description: "The tenant's review rules for intent changes.",
    resolve: (_root, _args, ctx) => reviewSettingsOf(ctx),
  }),
}));

const SetIntentInput = builder.inputType('SetDeviceIntentInput', {
  fields: (t) => ({
    deviceId: t.id({ required: true }),
    config: t.string({ required: true }),
    comment: t.string({ description: 'Why the intent changes; kept with the version.' }),
  }),
});

const ReportObservedConfigInput = builder.inputType('ReportObservedConfigInput', {
  fields: (t) => ({
    deviceId: t.id({ required: true }),
    config: t.string({ required: true }),
    observedAt: t.field({ type: 'DateTime', description: 'When the configuration was read; defaults to now.' }),
  }),
});

const ReconcileRequestRef = builder
  .objectRef<{ deviceId: string; jobId: string; queuedAt: Date }>('ReconcileRequest')
  .implement({
    fields: (t) => ({
      deviceId: t.exposeID('deviceId'),
      jobId: t.exposeString('jobId'),
      queuedAt: t.expose('queuedAt', { type: 'DateTime' }),
    }),
  });

builder.mutationFields((t) => ({
  setDeviceIntent: t.prismaField({
    type: 'IntentVersion',
    authScopes: { admin: true },
    description:
      'A direct intent edit (admins): a new version authored by the caller, recorded on the timeline and in the audit log (`bypassedReview: true`), then a reconcile. It bypasses the four-eyes rule; use openProposal for reviewed changes. FORBIDDEN (reason PROPOSAL_REQUIRED) when reviewSettings.requireProposals is on.',
    args: { input: t.arg({ type: SetIntentInput, required: true }) },
    resolve: async (query, _root, { input }, ctx, info) => {
      const v = await setDeviceIntent(ctx, {
        deviceId: String(input.deviceId),
        config: input.config,
        comment: input.comment,
      });
      flagAuditBypassedReview(ctx, info.path.key as string);
      return ctx.db.intentVersion.findUniqueOrThrow({ ...query, where: { id: v.id } });
    },
  }),
  setReviewSettings: t.field({
    type: ReviewSettingsRef,
    authScopes: { admin: true },
    description: "Changes the tenant's review rules (admins): `requireProposals` turns the direct intent edit off.",
    args: { input: t.arg({ type: SetReviewSettingsInput, required: true }) },
    resolve: (_root, { input }, ctx) => setReviewSettings(ctx, { requireProposals: input.requireProposals }),
  }),
  reportObservedConfig: t.prismaField({
    type: 'Device',
    authScopes: { user: true },
    description:
      'The agent path: a collector (typically a service user) reports what the device runs; a reconcile follows.',
    args: { input: t.arg({ type: ReportObservedConfigInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const d = await reportObservedConfig(ctx, {
        deviceId: String(input.deviceId),
        config: input.config,
        observedAt: input.observedAt,
      });
      return ctx.db.device.findUniqueOrThrow({ ...query, where: { id: d.id } });
    },
  }),
  reconcileDevice: t.field({
    type: ReconcileRequestRef,
    authScopes: { user: true },
    description:
      'Queues a reconcile: intent vs observed configuration, recorded as a DriftReport and a timeline event.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => requestReconcile(ctx, String(args.id)),
  }),
}));
