/**
 * What a reviewer sees of a proposal besides its fields: a unified diff of the device's current intent
 * against the proposed one, made by the same diff as drift (src/devices/diff.ts). The current intents of
 * the proposals in one response are read with one query (a per-request DataLoader).
 */
import DataLoader from 'dataloader';
import type { Ctx } from '../context.js';
import { intentChangeDiff } from '../devices/diff.js';

interface CurrentIntent {
  name: string;
  config: string;
}

const loaders = new WeakMap<Ctx, DataLoader<string, CurrentIntent | null>>();

function currentIntents(ctx: Ctx): DataLoader<string, CurrentIntent | null> {
  let l = loaders.get(ctx);
  if (!l) {
    l = new DataLoader(async (ids: readonly string[]) => {
      const rows = await ctx.db.device.findMany({
        where: { id: { in: [...ids] } },
        select: { id: true, name: true, intents: { orderBy: { version: 'desc' }, take: 1, select: { config: true } } },
      });
      const byId = new Map(rows.map((d) => [d.id, { name: d.name, config: d.intents[0]?.config ?? '' }]));
      return ids.map((id) => byId.get(id) ?? null);
    });
    loaders.set(ctx, l);
  }
  return l;
}

/**
 * The proposal's change as a unified diff (`--- current/<device>` / `+++ proposed/<device>`), empty when
 * the proposed intent equals the current one; null for a proposal without a proposed intent (an action)
 * or whose device is gone. A device without any intent yet diffs against an empty configuration.
 */
export async function proposalDiff(
  ctx: Ctx,
  p: { deviceId: string | null; proposedIntent: string | null },
): Promise<string | null> {
  if (!p.deviceId || p.proposedIntent == null) return null;
  const current = await currentIntents(ctx).load(p.deviceId);
  if (!current) return null;
  return intentChangeDiff(current.config, p.proposedIntent, current.name);
}
