/**
 * Notes on an alert: free text a person adds to its timeline (action `note`, with the author), in any state,
 * resolved included (what was found after the fact belongs there too). Announced on `alertChanged`
 * (`note_added`) so open alert pages show it at once; a note is not an outbound webhook topic.
 */
import type { Ctx } from '../context.js';
import { ValidationFailed } from '../errors.js';
import type { AlertTimelineEntry } from '../generated/prisma/client.js';
import { announceAlertChanges } from './lifecycle.js';
import { loadAlert } from './actions.js';
import { alertActor } from './policy.js';

/** Longest note, in characters. */
export const MAX_NOTE_LENGTH = 4000;

/** Adds a note (1–4000 characters after trimming; 422 naming `text` otherwise) to the alert's timeline. */
export async function addAlertNote(ctx: Ctx, input: { id: string; text: string }): Promise<AlertTimelineEntry> {
  const me = alertActor(ctx.principal);
  const text = input.text.trim();
  if (!text) throw new ValidationFailed([{ loc: ['text'], msg: 'must not be empty' }]);
  if ([...text].length > MAX_NOTE_LENGTH)
    throw new ValidationFailed([{ loc: ['text'], msg: `must be at most ${MAX_NOTE_LENGTH} characters` }]);
  const alert = await loadAlert(ctx, input.id);
  const entry = await ctx.db.alertTimelineEntry.create({
    data: {
      tenantId: alert.tenantId,
      alertId: alert.id,
      actorId: me.userId,
      action: 'note',
      note: text,
      createdAt: ctx.rt.clock.now(),
    },
  });
  await announceAlertChanges(ctx.rt, [{ change: 'note_added', alert }], []);
  return entry;
}
