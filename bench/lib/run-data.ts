/** What a bench run leaves behind or reports over time: its Redis keys, and counts per quarter-second. */

/** Counts of `times` per 250 ms after `start`, as `0.25s:123 …`. */
export function perQuarterSecond(times: Array<Date | null>, start: number): string {
  const buckets: number[] = [];
  for (const t of times) {
    if (!t) continue;
    const b = Math.floor((t.getTime() - start) / 250);
    buckets[b] = (buckets[b] ?? 0) + 1;
  }
  return Array.from(buckets, (n, b) => `${(b * 0.25).toFixed(2)}s:${n ?? 0}`).join(' ');
}

/** Removes a run's Redis keys (those under `prefix`, and only them). */
export async function dropRedisPrefix(redisUrl: string, prefix: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
  redis.disconnect();
}
