/**
 * Counters of what a benchmark's process sends to its stores, for finding round trips to save
 * (bench:deliveries' BENCH_COUNT_REDIS and BENCH_COUNT_SQL). Each patches the client's prototype once
 * and counts into the record it returns.
 */
import crypto from 'node:crypto';
import pg from 'pg';

/** Redis commands every ioredis client of this process sends, by name (scripts as `evalsha <name>`). */
export async function countRedisCommands(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const { Redis } = await import('ioredis');
  const proto = Redis.prototype as unknown as {
    sendCommand: (cmd: { name: string; args: unknown[] }) => unknown;
    defineCommand: (name: string, def: { lua: string }) => unknown;
  };
  // Scripts by the name they were defined under (BullMQ's and ours), found by their SHA-1.
  const scripts = new Map<string, string>();
  const define = proto.defineCommand;
  proto.defineCommand = function (this: unknown, name, def) {
    scripts.set(crypto.createHash('sha1').update(def.lua).digest('hex'), name);
    return define.call(this, name, def);
  };
  const orig = proto.sendCommand;
  proto.sendCommand = function (this: unknown, cmd) {
    const key =
      cmd.name === 'evalsha' || cmd.name === 'eval' ? `evalsha ${scripts.get(String(cmd.args[0])) ?? '?'}` : cmd.name;
    counts[key] = (counts[key] ?? 0) + 1;
    return orig.call(this, cmd);
  };
  return counts;
}

/** SQL statements every pg client of this process sends, by their first `prefixLength` characters. */
export function countSqlStatements(prefixLength = 40): Record<string, number> {
  const counts: Record<string, number> = {};
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const orig = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string })?.text ?? '');
    const key = text.replace(/\s+/g, ' ').trim().slice(0, prefixLength);
    counts[key] = (counts[key] ?? 0) + 1;
    return orig.apply(this, args);
  };
  return counts;
}
