/**
 * Working an alert with others: assign it to someone (`assignAlert`, the users it may go to in
 * `alertAssignees`), notes on its timeline (`addAlertNote`), and acknowledging or resolving many at once
 * (`acknowledgeAlerts`, `resolveAlerts`, one result per id). The rules are src/alerts/assignment.ts,
 * notes.ts and bulk.ts; the Alert type is schema/alerts.ts.
 */
import { builder } from './builder.js';
import { AlertRef } from './alerts.js';
import { assignAlert } from '../src/alerts/assignment.js';
import { addAlertNote, MAX_NOTE_LENGTH } from '../src/alerts/notes.js';
import { actOnAlerts, MAX_BULK_ALERTS, type BulkAlertResult } from '../src/alerts/bulk.js';

builder.prismaObjectFields('AlertTimelineEntry', (t) => ({
  alert: t.relation('alert', { description: 'The alert this entry is on.' }),
}));

const AlertBulkResult = builder.objectRef<BulkAlertResult>('AlertBulkResult').implement({
  description:
    'What happened to one id of a bulk action: ok with the alert as it is now, or the error of that id alone (code NOT_FOUND for an id the caller may not see, CONFLICT for a state that does not allow the action).',
  fields: (t) => ({
    id: t.exposeID('id'),
    ok: t.boolean({ resolve: (r) => r.alert !== null }),
    alert: t.field({
      type: AlertRef,
      nullable: true,
      resolve: (r, _args, ctx) => (r.alert ? ctx.db.alert.findUnique({ where: { id: r.alert.id } }) : null),
    }),
    code: t.exposeString('code', { nullable: true, description: 'The error category (NOT_FOUND, CONFLICT, …).' }),
    reason: t.exposeString('reason', {
      nullable: true,
      description: 'The precise reason (ALERT_INVALID_TRANSITION, …).',
    }),
    message: t.exposeString('message', { nullable: true, description: 'What went wrong, for people.' }),
  }),
});

builder.queryFields((t) => ({
  alertAssignees: t.prismaField({
    type: ['User'],
    authScopes: { user: true },
    description: "The users an alert may be assigned to: every user of the caller's tenant, by email.",
    resolve: (query, _root, _args, ctx) => ctx.db.user.findMany({ ...query, orderBy: { email: 'asc' } }),
  }),
}));

builder.mutationFields((t) => ({
  assignAlert: t.prismaField({
    type: 'Alert',
    authScopes: { user: true },
    description:
      'Assigns the alert to a user of the tenant (VALIDATION_FAILED naming userId otherwise), or unassigns it when userId is null or absent. Recorded on its timeline ("assigned to …" with who did it) and announced (alertChanged ASSIGNED, outbound trigger ALERT_ASSIGNED). A resolved alert: CONFLICT.',
    args: { id: t.arg.id({ required: true }), userId: t.arg.id() },
    resolve: async (query, _root, args, ctx) => {
      const alert = await assignAlert(ctx, { id: String(args.id), userId: args.userId ? String(args.userId) : null });
      return ctx.db.alert.findUniqueOrThrow({ ...query, where: { id: alert.id } });
    },
  }),
  addAlertNote: t.prismaField({
    type: 'AlertTimelineEntry',
    authScopes: { user: true },
    description: `Adds a note (1–${MAX_NOTE_LENGTH} characters) to the alert's timeline (action "note", the caller as actor), in any state; announced on alertChanged (NOTE_ADDED).`,
    args: { id: t.arg.id({ required: true }), text: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const entry = await addAlertNote(ctx, { id: String(args.id), text: args.text });
      return ctx.db.alertTimelineEntry.findUniqueOrThrow({ ...query, where: { id: entry.id } });
    },
  }),
  acknowledgeAlerts: t.field({
    type: [AlertBulkResult],
    authScopes: { user: true },
    description: `Acknowledges each alert (at most ${MAX_BULK_ALERTS} ids) as acknowledgeAlert does; one result per distinct id, in order, so one bad id loses nothing of the others.`,
    args: { ids: t.arg.idList({ required: true }) },
    resolve: (_root, args, ctx) => actOnAlerts(ctx, 'acknowledge', args.ids.map(String)),
  }),
  resolveAlerts: t.field({
    type: [AlertBulkResult],
    authScopes: { user: true },
    description: `Resolves each alert (at most ${MAX_BULK_ALERTS} ids) as resolveAlert does; one result per distinct id, in order.`,
    args: { ids: t.arg.idList({ required: true }) },
    resolve: (_root, args, ctx) => actOnAlerts(ctx, 'resolve', args.ids.map(String)),
  }),
}));
