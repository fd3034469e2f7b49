/**
 * Whether a proposed assistant action can still be decided, as the approve mutation will judge it: the
 * same `staleReason` (src/assistant/actions.ts), read against the alert as it is now. The console offers
 * Approve only while this is null, so an action made stale by a resolve or acknowledge (by anyone, or
 * over the API) or past its time is not offered for a decision that would fail with CONFLICT.
 */
import { builder } from './builder.js';
import { staleReason } from '../src/assistant/actions.js';

builder.prismaObjectField('AssistantAction', 'staleReason', (t) =>
  t.string({
    nullable: true,
    description:
      'Why this proposed action can no longer be decided (expired, or the alert changed since it was proposed); ' +
      'approving it would be a CONFLICT. Null while it can be decided, and for decided actions.',
    resolve: async (a, _args, ctx) => {
      if (a.status !== 'proposed') return null;
      const alert = await ctx.db.alert.findUnique({ where: { id: a.alertId } });
      if (!alert) return null;
      return staleReason(a, alert, ctx.rt.clock.now());
    },
  }),
);
