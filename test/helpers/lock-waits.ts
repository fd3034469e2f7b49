/**
 * Waits until some session of the test's database waits on a lock (a worker blocked on a row the test
 * holds), optionally only one whose statement contains every `fragment`.
 *
 * Asked through the service's own pool, never from the session that holds the row: inside a transaction
 * Postgres keeps its first list of sessions in pg_stat_activity (wait events are read live, sessions are
 * not), so a worker connection opened after the holder's first look is never seen waiting.
 * test/durability.test.ts failed that way on loaded CI runs: the worker's pool opened a connection for
 * the blocked batch after the first look, and the 90 s wait ran out.
 */
import type { PrismaClient } from '../../src/generated/prisma/client.js';
import { eventually } from './http.js';

export async function waitForLockWait(db: PrismaClient, fragments: string[] = [], timeoutMs = 30_000): Promise<void> {
  const likes = fragments.map((_, i) => ` AND query LIKE $${i + 1}`).join('');
  await eventually(async () => {
    const r = await db.$queryRawUnsafe<Array<{ n: number }>>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'${likes}`,
      ...fragments.map((f) => `%${f}%`),
    );
    return r[0]!.n > 0;
  }, timeoutMs);
}
