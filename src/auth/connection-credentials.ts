/**
 * Credential checks for long-lived connections (graphql-ws, SSE) that cost no database transaction per
 * connection, so one node can hold tens of thousands of them:
 * - `principalStillValid` joins every check asked for in the same event-loop turn into one
 *   `id IN (...)` query per credential kind (plain statements, no transaction);
 * - `watchCredential` puts a connection on one per-runtime timer that re-checks all open connections'
 *   credentials together every CREDENTIAL_RECHECK_MS (one query per kind per tick) and ends those whose
 *   PAT was revoked or expired or whose session ended;
 * - `authenticateConnection` memoises a credential's principal briefly (by the SHA-256 of what was
 *   presented, never the cleartext; joined while in flight), and still checks the credential's validity
 *   through the batched check on every connect, so a revoked credential is refused at once.
 * A failing database counts as still valid (an outage must not cut every stream at once).
 */
import crypto from 'node:crypto';
import type { Runtime } from '../runtime.js';
import { parse as parseCookie } from 'cookie';
import { SESSION_COOKIE, type Principal } from '../principal.js';
import { authenticate, patIsUsable, type CredentialSource } from './authenticate.js';
import { Unauthenticated } from '../errors.js';

type Credential = Principal['credential'];

const MEMO_MS = 10_000;
const MEMO_MAX = 50_000;

interface MemoEntry {
  principal: Promise<Principal | null>;
  until: number;
  /** `kind:id` of the resolved credential, once resolved. */
  credentialKey?: string;
}

export interface Checks {
  pending: Map<string, Array<(valid: boolean) => void>>;
  scheduled: boolean;
  watched: Map<string, Set<() => void>>;
  timer?: NodeJS.Timeout;
  memo: Map<string, MemoEntry>;
}

declare module '../runtime.js' {
  interface RuntimeParts {
    /** Batched credential checks, the re-check timer and the principal memo of long-lived connections. */
    connectionChecks: Checks;
  }
}

/** Builds the runtime's connection-credential state (src/server/runtime-parts.ts). */
export function createConnectionChecks(rt: Runtime): Checks {
  const state: Checks = { pending: new Map(), scheduled: false, watched: new Map(), memo: new Map() };
  rt.onClose(() => clearInterval(state.timer));
  return state;
}

function stateOf(rt: Runtime): Checks {
  return rt.parts.connectionChecks;
}

const keyOf = (c: Credential) => `${c.kind}:${c.id}`;

/** The keys (`kind:id`) among `keys` whose credential no longer holds; throws when the database fails. */
async function endedAmong(rt: Runtime, keys: string[]): Promise<Set<string>> {
  const ids = (kind: string) => keys.filter((k) => k.startsWith(kind + ':')).map((k) => k.slice(kind.length + 1));
  const pats = ids('pat');
  const sessions = ids('session');
  const now = rt.clock.now();
  const [patRows, sessionRows] = await Promise.all([
    pats.length
      ? rt.prisma.accessToken.findMany({
          where: { id: { in: pats } },
          select: { id: true, revokedAt: true, expiresAt: true, graceUntil: true },
        })
      : [],
    sessions.length
      ? rt.prisma.session.findMany({
          where: { id: { in: sessions } },
          select: { id: true, revokedAt: true, expiresAt: true },
        })
      : [],
  ]);
  const holding = new Set<string>([
    ...patRows.filter((r) => patIsUsable(r, now)).map((r) => `pat:${r.id}`),
    ...sessionRows.filter((r) => !r.revokedAt && r.expiresAt > now).map((r) => `session:${r.id}`),
  ]);
  // Other kinds (ingest keys, webhooks) have no long-lived connections: they always hold here.
  return new Set(keys.filter((k) => (k.startsWith('pat:') || k.startsWith('session:')) && !holding.has(k)));
}

async function flush(rt: Runtime, s: Checks): Promise<void> {
  s.scheduled = false;
  const batch = s.pending;
  s.pending = new Map();
  let ended: Set<string>;
  try {
    ended = await endedAmong(rt, [...batch.keys()]);
  } catch (err) {
    rt.logger.warn({ err: (err as Error).message }, 'could not re-check connection credentials');
    ended = new Set();
  }
  for (const [key, waiters] of batch) for (const w of waiters) w(!ended.has(key));
}

/**
 * True while the credential behind `principal` still holds: the PAT is not revoked or expired (rotation
 * grace included), the session is not logged out or past its 7 days. Checks asked for in the same turn
 * share one query per credential kind.
 */
export function principalStillValid(rt: Runtime, principal: Principal): Promise<boolean> {
  const s = stateOf(rt);
  const key = keyOf(principal.credential);
  return new Promise((resolve) => {
    const waiters = s.pending.get(key);
    if (waiters) waiters.push(resolve);
    else s.pending.set(key, [resolve]);
    if (!s.scheduled) {
      s.scheduled = true;
      setImmediate(() => void flush(rt, s));
    }
  });
}

async function recheckWatched(rt: Runtime, s: Checks): Promise<void> {
  if (!s.watched.size) return;
  let ended: Set<string>;
  try {
    ended = await endedAmong(rt, [...s.watched.keys()]);
  } catch (err) {
    rt.logger.warn({ err: (err as Error).message }, 'could not re-check connection credentials');
    return;
  }
  for (const key of ended) {
    for (const onEnded of s.watched.get(key) ?? []) onEnded();
    s.watched.delete(key);
    for (const [memoKey, entry] of s.memo) if (entry.credentialKey === key) s.memo.delete(memoKey);
  }
}

/**
 * Calls `onEnded` (once) when the credential of `principal` stops holding, found by the shared re-check
 * every CREDENTIAL_RECHECK_MS. Returns the function that stops watching (call it when the connection closes).
 */
export function watchCredential(rt: Runtime, principal: Principal, onEnded: () => void): () => void {
  const s = stateOf(rt);
  if (!s.timer) {
    let running = false;
    s.timer = setInterval(() => {
      if (running) return;
      running = true;
      void recheckWatched(rt, s).finally(() => (running = false));
    }, rt.config.credentialRecheckMs);
    s.timer.unref();
  }
  const key = keyOf(principal.credential);
  let set = s.watched.get(key);
  if (!set) s.watched.set(key, (set = new Set()));
  set.add(onEnded);
  return () => {
    const current = s.watched.get(key);
    current?.delete(onEnded);
    if (current && !current.size) s.watched.delete(key);
  };
}

/** Seconds-since-epoch expiry of a JWT's payload (already verified when this is read), or 0. */
function jwtExpiryMs(token: string): number {
  try {
    const exp = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')).exp;
    return typeof exp === 'number' ? exp * 1000 : 0;
  } catch {
    return 0;
  }
}

/**
 * The principal of a connection's credential (null without one; Unauthenticated for a bad one). The
 * resolution is memoised for a few seconds (never past a JWT's expiry); the credential's validity is
 * checked on every call through the batched check.
 */
export async function authenticateConnection(rt: Runtime, source: CredentialSource): Promise<Principal | null> {
  if (!source.authorization && !source.cookie) return null;
  const s = stateOf(rt);
  const presented = `${source.authorization ?? ''}\n${source.cookie ?? ''}`;
  const key = crypto.createHash('sha256').update(presented).digest('base64url');
  // A memo lifetime, but capped at the JWT's expiry, which is stamped from the service clock: read that one.
  const now = rt.clock.now().getTime();
  let entry = s.memo.get(key);
  if (!entry || entry.until <= now) {
    const principal = authenticate(rt, source).then((a) => a.principal);
    const stored: MemoEntry = { principal, until: now + MEMO_MS };
    if (s.memo.size >= MEMO_MAX) s.memo.clear();
    s.memo.set(key, stored);
    principal.then(
      (p) => {
        if (!p) return;
        stored.credentialKey = keyOf(p.credential);
        if (p.credential.kind !== 'session') return;
        const jwt =
          /^Bearer\s+(\S+)/i.exec(source.authorization ?? '')?.[1] ??
          parseCookie(source.cookie ?? '')[SESSION_COOKIE] ??
          '';
        stored.until = Math.min(stored.until, jwtExpiryMs(jwt));
      },
      () => s.memo.delete(key), // failures are not memoised
    );
    return principal; // just resolved from the database: valid now
  }
  const principal = await entry.principal;
  if (principal && !(await principalStillValid(rt, principal))) {
    s.memo.delete(key);
    throw new Unauthenticated(
      'This credential was revoked or has ended.',
      principal.credential.kind === 'pat' ? 'TOKEN_REVOKED' : 'SESSION_ENDED',
    );
  }
  return principal;
}
