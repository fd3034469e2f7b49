/**
 * The X-Service-Key authenticator of POST /events: resolves the tenant principal from the key and
 * counts the request against the key's rate limit, before the body is looked at.
 *
 * Key lookups are memoised in-process for a few seconds (by the key's SHA-256, never the cleartext):
 * ingest keys are not revoked, only rotated with a 24-hour grace, so a short memo can only extend an
 * old key's grace by that many seconds, and it takes a database round trip off the hot path.
 */
import type { Request } from 'express';
import type { Runtime } from '../runtime.js';
import type { Principal } from '../principal.js';
import { authenticateIngestKey } from '../tenants/ingest-keys.js';
import { tokenHash } from '../secrets.js';
import { consumeInboundRate } from './rate-limit.js';

const MEMO_MS = 10_000;
const MEMO_MAX = 10_000;

export type IngestKeyMemo = Map<string, { principal: Principal; until: number }>;

declare module '../runtime.js' {
  interface RuntimeParts {
    /** Ingest keys' principals by key hash, for MEMO_MS. */
    ingestKeyMemo: IngestKeyMemo;
  }
}

/** The principal for an X-Service-Key value (401 when missing or invalid), memoised briefly. */
export async function principalForIngestKey(rt: Runtime, key: string | undefined): Promise<Principal> {
  const memo = rt.parts.ingestKeyMemo;
  const hash = key ? tokenHash(key) : '';
  const hit = hash ? memo.get(hash) : undefined;
  const now = Date.now(); // the memo's lifetime, in-process: the system clock
  if (hit && hit.until > now) return hit.principal;
  const principal = await authenticateIngestKey(rt.prisma, key, rt.clock.now());
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(hash, { principal, until: now + MEMO_MS });
  return principal;
}

/** Route authenticator for X-Service-Key: 401 for a bad key, then 429 past the per-key rate. */
export async function ingestKeyAuth(rt: Runtime, req: Request): Promise<Principal> {
  const header = req.headers['x-service-key'];
  const principal = await principalForIngestKey(rt, Array.isArray(header) ? header[0] : header);
  await consumeInboundRate(rt, `key:${principal.credential.id}`);
  return principal;
}
