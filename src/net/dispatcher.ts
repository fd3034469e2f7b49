/**
 * An undici dispatcher for Node's fetch whose connections resolve names through the outbound address
 * policy's guarded lookup (src/net/url-guard.ts): model calls and AIPerf runs use it.
 */
import type { LookupFunction } from 'node:net';

/** An undici Agent (Node's fetch's own dispatcher class), closed after the run. */
export interface GuardedDispatcher {
  close(): Promise<void>;
}

const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

/**
 * An undici Agent whose connections resolve names through the outbound URL policy's guarded lookup
 * (src/net/url-guard.ts), so a name re-pointed at a private address after the start-time check
 * (DNS rebinding) is refused at connect time, as for webhook deliveries. Node does not export
 * undici's classes; the Agent class is taken from the global dispatcher that Node's fetch installs.
 * Null when it is not available (the start-time and per-run checks still apply).
 */
export async function guardedDispatcher(lookup: LookupFunction): Promise<GuardedDispatcher | null> {
  const g = globalThis as unknown as Record<
    symbol,
    { constructor?: new (opts: unknown) => GuardedDispatcher } | undefined
  >;
  // Node loads its fetch implementation (and installs the global dispatcher) on the first call.
  if (!g[GLOBAL_DISPATCHER]) await fetch('data:,').catch(() => undefined);
  const Agent = g[GLOBAL_DISPATCHER]?.constructor;
  if (typeof Agent !== 'function' || Agent.name !== 'Agent') return null;
  return new Agent({ connect: { lookup }, keepAliveTimeout: 10_000 });
}
