/**
 * The authenticator of Alertmanager API v2 `POST /alerts`: Prometheus (and any Alertmanager client)
 * sends a credential only as `Authorization: Bearer …` (its `alertmanagers[].authorization`), so the
 * tenant's ingest key travels there instead of X-Service-Key. Same key check, memo and per-key rate as
 * POST /events.
 */
import type { Request } from 'express';
import type { Runtime } from '../runtime.js';
import type { Principal } from '../principal.js';
import { Unauthenticated } from '../errors.js';
import { principalForIngestKey } from '../events/ingest-auth.js';
import { consumeInboundRate } from '../events/rate-limit.js';

/** 401 unless `Authorization: Bearer <ingest key>` names a valid key; then the per-key rate (429). */
export async function alertmanagerIngestAuth(rt: Runtime, req: Request): Promise<Principal> {
  const h = req.headers.authorization;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(typeof h === 'string' ? h : '');
  if (!m)
    throw new Unauthenticated(
      "Send the tenant's ingest key as Authorization: Bearer <key> (Prometheus: alertmanagers[].authorization.credentials).",
      'INGEST_KEY_INVALID',
    );
  const principal = await principalForIngestKey(rt, m[1]);
  await consumeInboundRate(rt, `key:${principal.credential.id}`);
  return principal;
}
