/**
 * Rollups of backfilled GPU samples, off the push path. A push of history (samples older than the
 * periodic task redoes) no longer rolls its buckets up before it answers: it notes its range in Redis
 * before its transaction (`noteBackfill`, a write-ahead marker), and after commit hands the range to
 * this process's roller (`rollUpBackfillSoon`), which merges the ranges that arrive while it works into
 * one recomputation (minutes, then the hours they belong to) and then removes their markers. So
 * concurrent backfills share one rollup instead of each redoing its hour buckets, and the 202 waits
 * for the samples' commit only.
 *
 * A marker whose process died before its rollup (or whose transaction failed and could not remove it)
 * is taken up by the periodic task after STALE_MS (`rollUpStaleBackfills`); recomputing a bucket gives
 * the same row, so a marker redone twice is harmless.
 */
import { v7 as uuidv7 } from 'uuid';
import type { Runtime } from '../runtime.js';
import { ROLLUP_RESOLUTIONS, rollUp } from './rollups.js';

/** A marker older than this belongs to a process that is gone (or whose rollup failed): redo it. */
export const STALE_MS = 10 * 60_000;
/** How long the roller gathers committed backfills before a pass. */
const COALESCE_MS = 1000;
/** Stale markers redone per task run at most. */
const STALE_BATCH = 100;

export interface BackfillRange {
  from: Date;
  /** Exclusive. */
  to: Date;
  /** The GPUs whose buckets changed. */
  gpuIds: string[];
}

type Rt = Pick<Runtime, 'prisma' | 'redis' | 'config' | 'clock' | 'logger' | 'onClose'>;

const backlogKey = (rt: Pick<Runtime, 'config'>) => `${rt.config.redisPrefix}:gpu:rollup-backlog`;

/**
 * Records, before the samples' transaction, that [from, to) will need its buckets redone. Returns the
 * marker. With Redis unreachable the push still goes on (its rollup then only has this process's roller).
 */
export async function noteBackfill(rt: Rt, from: Date, to: Date): Promise<string> {
  const marker = `${uuidv7()}|${from.getTime()}|${to.getTime()}`;
  try {
    await rt.redis.zadd(backlogKey(rt), rt.clock.now().getTime(), marker);
  } catch (err) {
    rt.logger.warn(
      { err: (err as Error).message },
      'GPU backfill marker not written; its rollup relies on this process alone',
    );
  }
  return marker;
}

/** Drops markers whose range needs nothing (their transaction failed, or they were rolled up). */
export async function forgetBackfill(rt: Rt, markers: string[]): Promise<void> {
  if (markers.length) await rt.redis.zrem(backlogKey(rt), ...markers);
}

class BackfillRoller {
  private pending: Array<BackfillRange & { marker: string }> = [];
  private running: Promise<void> | null = null;
  constructor(private readonly rt: Rt) {}

  add(marker: string, range: BackfillRange): void {
    this.pending.push({ ...range, marker });
    this.running ??= this.loop().finally(() => (this.running = null));
  }

  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async loop(): Promise<void> {
    while (this.pending.length) {
      // Let the backfills in flight land first: one pass over all of them costs about what one costs.
      await new Promise((resolve) => setTimeout(resolve, COALESCE_MS));
      const batch = this.pending.splice(0);
      const from = new Date(Math.min(...batch.map((b) => b.from.getTime())));
      const to = new Date(Math.max(...batch.map((b) => b.to.getTime())));
      const gpuIds = [...new Set(batch.flatMap((b) => b.gpuIds))];
      try {
        for (const resolution of ROLLUP_RESOLUTIONS) await rollUp(this.rt, resolution, from, to, gpuIds);
        await forgetBackfill(
          this.rt,
          batch.map((b) => b.marker),
        );
      } catch (err) {
        // The markers stay: the periodic task redoes them once they are stale.
        this.rt.logger.warn(
          { err: (err as Error).message, backfills: batch.length },
          'GPU backfill rollup failed; the gpu-rollups task will redo it',
        );
      }
    }
  }
}

const rollers = new WeakMap<Rt, BackfillRoller>();

function rollerOf(rt: Rt): BackfillRoller {
  let r = rollers.get(rt);
  if (!r) {
    const created = new BackfillRoller(rt);
    // On shutdown: finish the rollups of what was committed (their markers would cover them otherwise).
    rt.onClose(() => created.idle());
    rollers.set(rt, (r = created));
  }
  return r;
}

/** After commit: rolls the range up in this process, soon, without the caller waiting. */
export function rollUpBackfillSoon(rt: Rt, marker: string, range: BackfillRange): void {
  rollerOf(rt).add(marker, range);
}

/** Resolves when this process has rolled up every backfill handed to it so far. */
export async function backfillRollupsIdle(rt: Rt): Promise<void> {
  await rollers.get(rt)?.idle();
}

/**
 * The periodic task's share: redoes markers older than STALE_MS, each over its range for every GPU (the
 * marker does not carry the GPUs), and removes them. Returns how many it redid.
 */
export async function rollUpStaleBackfills(rt: Rt, now: Date): Promise<number> {
  const markers = await rt.redis.zrangebyscore(
    backlogKey(rt),
    '-inf',
    now.getTime() - STALE_MS,
    'LIMIT',
    0,
    STALE_BATCH,
  );
  for (const marker of markers) {
    const [, fromMs, toMs] = marker.split('|');
    const from = new Date(Number(fromMs));
    const to = new Date(Number(toMs));
    if (Number.isFinite(from.getTime()) && Number.isFinite(to.getTime()))
      for (const resolution of ROLLUP_RESOLUTIONS) await rollUp(rt, resolution, from, to);
    await forgetBackfill(rt, [marker]);
  }
  return markers.length;
}
