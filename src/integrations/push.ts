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
import { getProvider } from './registry.js';
import { effectiveConfigOf } from './integrations.js';
import { recordSignals, type RecordResult } from './record.js';
import { noteIntegrationError, noteIntegrationSuccess } from './health.js';

function bearer(req: Request): string | null {
  const h = req.headers.authorization;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(Array.isArray(h) ? (h[0] ?? '') : (h ?? ''));
  return m ? m[1] : null;
}

/** Route authenticator of POST /integrations/:integrationId/push. */
export async function integrationPushAuth(rt: Runtime, req: Request): Promise<Principal> {
  const token = bearer(req);
  if (!token) throw new Unauthenticated('Send Authorization: Bearer <the integration\'s push token>.');
  const hash = tokenHash(token);
  // Credential resolution by hash: the root client, like ingest keys.
  const row = await rt.prisma.integration.findFirst({
    where: { OR: [{ pushTokenHash: hash }, { previousTokenHash: hash, previousTokenValidUntil: { gt: new Date() } }] },
    select: { id: true, tenantId: true, enabled: true },
  });
  if (!row || !constantTimeEqual(row.id, String(req.params.integrationId ?? ''))) throw new Unauthenticated('Invalid push token for this integration.');
  if (!row.enabled) throw new NotFound('Enabled integration');
  await consumeInboundRate(rt, `integration:${row.id}`);
  return { tenantId: row.tenantId, userId: null, email: null, role: null, userKind: null, credential: { kind: 'webhook', id: row.id } };
}

/** Records a push to the authenticated integration; a body the provider cannot map is a 422 and an error on its health. */
export async function receivePush(ctx: Ctx, body: unknown): Promise<RecordResult> {
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
    if (err instanceof ValidationFailed) await noteIntegrationError(ctx.rt, integ, `push rejected: ${err.message}`);
    throw err;
  }
  const result = await recordSignals(ctx.rt, integ, signals, { via: 'webhook', onlyChanges: false, resolveMissing: false });
  await noteIntegrationSuccess(ctx.rt, integ);
  return result;
}
