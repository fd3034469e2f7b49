/**
 * PagerDuty's own path: `POST {site}/v2/enqueue` and `/v2/change/enqueue`, where PagerDuty's SDKs and
 * tools post when only their host can be changed (`@pagerduty/pdjs` `event({ server })`). The body's
 * `routing_key` is a `pagerduty` integration's push token (the rotated-away one during its grace), which
 * finds the integration and so the tenant; an event then goes through the same push as
 * `/api/v1/integrations/<id>/push` (so the 202's `dedup_key` is the key to acknowledge and resolve with),
 * and a change event becomes a `pagerduty.changed` timeline event.
 */
import type { Ctx } from '../context.js';
import type { Runtime } from '../runtime.js';
import type { Principal } from '../principal.js';
import { NotFound, Unauthenticated, ValidationFailed } from '../errors.js';
import { consumeInboundRate } from '../events/rate-limit.js';
import { getProvider } from './registry.js';
import { integrationByPushToken, pushPrincipal, type PushAnswer } from './push.js';
import { recordSignals } from './record.js';
import { noteIntegrationError, noteIntegrationSuccess } from './health.js';
import { parsePagerDutyChange } from './providers/pagerduty-change.js';

/** The `routing_key` of a body: a string of 1 to 512 characters, else a 422 naming it. */
function routingKeyOf(body: unknown): string {
  const v =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>).routing_key
      : undefined;
  if (typeof v !== 'string' || v.length === 0 || v.length > 512)
    throw new ValidationFailed([{ loc: ['routing_key'], msg: 'is missing or not a string of 1 to 512 characters' }]);
  return v;
}

/**
 * The principal of a `routing_key`: the enabled `pagerduty` integration whose push token it is, after its
 * inbound rate. Anything else (unknown, another provider's token, a disabled integration) is an invalid
 * routing key, as PagerDuty answers.
 */
export async function pagerDutyRoutingKeyAuth(rt: Runtime, body: unknown): Promise<Principal> {
  const row = await integrationByPushToken(rt, routingKeyOf(body));
  if (!row || row.provider !== 'pagerduty' || !row.enabled) throw new Unauthenticated('Invalid routing key');
  await consumeInboundRate(rt, `integration:${row.id}`);
  return pushPrincipal(row);
}

/** Records a change event to the authenticated integration: 202 as PagerDuty answers, or its 400. */
export async function receivePagerDutyChange(ctx: Ctx, body: unknown): Promise<PushAnswer> {
  const id = ctx.principal?.credential.kind === 'webhook' && !ctx.principal.userId ? ctx.principal.credential.id : null;
  if (!id) throw new Unauthenticated();
  const integ = await ctx.db.integration.findUnique({ where: { id } });
  if (!integ) throw new NotFound('Integration');
  let signals;
  try {
    signals = parsePagerDutyChange(body);
  } catch (err) {
    if (!(err instanceof ValidationFailed)) throw err;
    await noteIntegrationError(ctx.rt, integ, `change event rejected: ${err.message}`);
    return getProvider('pagerduty').pushProtocol!.rejected(err.extra.fields ?? []);
  }
  await recordSignals(ctx.rt, integ, signals, { via: 'webhook', onlyChanges: false, resolveMissing: false });
  await noteIntegrationSuccess(ctx.rt, integ);
  return { status: 202, body: { status: 'success', message: 'Change event processed' } };
}
