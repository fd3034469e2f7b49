/**
 * Pushes to an integration's own URL (POST /integrations/<id>/push) with
 * `Authorization: Bearer <push token>`: the token (looked up by its hash, the rotated-away one during
 * its 24 h grace) is how the integration and so the tenant are found. Then the per-credential inbound
 * rate, then the provider maps the body onto signals, which are recorded.
 */
import type { Request } from 'express';
import type { Ctx } from '../context.js';
import type { Runtime } from '../runtime.js';
import type { Principal } from '../principal.js';
import { NotFound, Unauthenticated, ValidationFailed } from '../errors.js';
import { constantTimeEqual, tokenHash } from '../secrets.js';
import { consumeInboundRate } from '../events/rate-limit.js';
import { findProvider, getProvider } from './registry.js';
import { effectiveConfigOf } from './integrations.js';
import { recordSignals, type RecordResult } from './record.js';
import { noteIntegrationError, noteIntegrationSuccess } from './health.js';

function bearer(req: Request): string | null {
  const h = req.headers.authorization;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(Array.isArray(h) ? (h[0] ?? '') : (h ?? ''));
  return m ? m[1] : null;
}

/** The token of a body credential field (PagerDuty's `routing_key`), when the body has one. */
function bodyCredential(req: Request): string | null {
  const b = req.body as Record<string, unknown> | undefined;
  const v = b && typeof b === 'object' && !Array.isArray(b) ? b.routing_key : undefined;
  return typeof v === 'string' && v.length > 0 && v.length <= 512 ? v : null;
}

/** Route authenticator of POST /integrations/:integrationId/push. */
export async function integrationPushAuth(rt: Runtime, req: Request): Promise<Principal> {
  const header = bearer(req);
  const token = header ?? bodyCredential(req);
  if (!token)
    throw new Unauthenticated(
      "Send Authorization: Bearer <the integration's push token> (PagerDuty events: routing_key).",
    );
  const row = await integrationByPushToken(rt, token);
  if (!row || !constantTimeEqual(row.id, String(req.params.integrationId ?? '')))
    throw new Unauthenticated('Invalid push token for this integration.');
  // A token in the body counts only for a provider whose protocol puts it there.
  if (!header && findProvider(row.provider)?.pushProtocol?.credentialField !== 'routing_key')
    throw new Unauthenticated("Send Authorization: Bearer <the integration's push token>.");
  if (!row.enabled) throw new NotFound('Enabled integration');
  await consumeInboundRate(rt, `integration:${row.id}`);
  return pushPrincipal(row);
}

/**
 * The integration a push token belongs to (its current token, or the rotated-away one during its 24 h
 * grace), looked up by hash with the root client like ingest keys; null when none.
 */
export async function integrationByPushToken(
  rt: Runtime,
  token: string,
): Promise<{ id: string; tenantId: string; enabled: boolean; provider: string } | null> {
  const hash = tokenHash(token);
  return rt.prisma.integration.findFirst({
    where: {
      OR: [{ pushTokenHash: hash }, { previousTokenHash: hash, previousTokenValidUntil: { gt: rt.clock.now() } }],
    },
    select: { id: true, tenantId: true, enabled: true, provider: true },
  });
}

/** Push credentials act for the tenant like signed webhooks: credential kind `webhook`, id = the integration's. */
export function pushPrincipal(row: { id: string; tenantId: string }): Principal {
  return {
    tenantId: row.tenantId,
    userId: null,
    email: null,
    role: null,
    userKind: null,
    credential: { kind: 'webhook', id: row.id },
  };
}

export interface PushAnswer {
  status: number;
  body: Record<string, unknown>;
}

function answerOf(r: RecordResult): PushAnswer {
  return { status: 200, body: { events: r.events, alerts_opened: r.alertsOpened, alerts_resolved: r.alertsResolved } };
}

/**
 * Records a push to the authenticated integration and says what to answer. A body the provider cannot
 * map is an error on its health and a 422 (or the provider protocol's own rejection, e.g. PagerDuty's 400).
 */
export async function receivePush(ctx: Ctx, body: unknown): Promise<PushAnswer> {
  // Push credentials act for the tenant like signed webhooks (credential kind `webhook`, id = the integration's).
  const id = ctx.principal?.credential.kind === 'webhook' && !ctx.principal.userId ? ctx.principal.credential.id : null;
  if (!id) throw new Unauthenticated();
  const integ = await ctx.db.integration.findUnique({ where: { id } });
  if (!integ) throw new NotFound('Integration');
  const p = getProvider(integ.provider);
  if (!p.parsePush) throw new NotFound(`Push endpoint of a ${p.name} integration`);
  let signals;
  try {
    signals = p.parsePush(body, await effectiveConfigOf(ctx.rt, integ));
  } catch (err) {
    if (!(err instanceof ValidationFailed)) throw err;
    await noteIntegrationError(ctx.rt, integ, `push rejected: ${err.message}`);
    if (p.pushProtocol) return p.pushProtocol.rejected(err.extra.fields ?? []);
    throw err;
  }
  const result = await recordSignals(ctx.rt, integ, signals, {
    via: 'webhook',
    onlyChanges: false,
    resolveMissing: false,
  });
  await noteIntegrationSuccess(ctx.rt, integ);
  return p.pushProtocol ? p.pushProtocol.accepted(signals) : answerOf(result);
}
