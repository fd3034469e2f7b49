/**
 * Acknowledging or resolving many alerts at once (the console's multi-select): each id is acted on by itself,
 * through the same service as the single action, so one bad id (another tenant's: NOT_FOUND; a wrong state:
 * CONFLICT) is reported for that id and loses nothing of the others.
 */
import type { Ctx } from '../context.js';
import { DomainError, ValidationFailed } from '../errors.js';
import type { Alert } from '../generated/prisma/client.js';
import { acknowledgeAlert, resolveAlert } from './actions.js';
import { alertActor } from './policy.js';

/** Most ids one bulk request may name. */
export const MAX_BULK_ALERTS = 100;

export interface BulkAlertResult {
  id: string;
  /** The alert after the change; null when it failed. */
  alert: Alert | null;
  /** The error's category (`NOT_FOUND`, `CONFLICT`, …) when it failed. */
  code: string | null;
  reason: string | null;
  message: string | null;
}

/** Runs `action` on each id in order (duplicates once); 422 naming `ids` for none or more than 100. */
export async function actOnAlerts(
  ctx: Ctx,
  action: 'acknowledge' | 'resolve',
  ids: readonly string[],
): Promise<BulkAlertResult[]> {
  alertActor(ctx.principal);
  const unique = [...new Set(ids.map(String))];
  if (unique.length === 0) throw new ValidationFailed([{ loc: ['ids'], msg: 'name at least one alert id' }]);
  if (unique.length > MAX_BULK_ALERTS)
    throw new ValidationFailed([
      { loc: ['ids'], msg: `at most ${MAX_BULK_ALERTS} ids per request (got ${unique.length}); send several requests` },
    ]);
  const act = action === 'acknowledge' ? acknowledgeAlert : resolveAlert;
  const results: BulkAlertResult[] = [];
  for (const id of unique) {
    try {
      results.push({ id, alert: await act(ctx, { id }), code: null, reason: null, message: null });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      results.push({ id, alert: null, code: err.code, reason: err.reason, message: err.message });
    }
  }
  return results;
}
