/**
 * Events find their device: an event names a device of its tenant by its `source`, or by its `host`,
 * `device`, `instance` (without the port) or `node` label, matched against the device's name or one
 * of its declared aliases. The first candidate in that order that names a device wins.
 *
 * Linking runs at rule evaluation, not at ingest: the ingest hot path stays one INSERT per batch, and
 * the evaluator links a whole batch with one indexed lookup (names through the (tenantId, name) unique
 * index, aliases through a GIN index) before the alerts it opens take the event's device.
 */
import type { Event, Prisma } from '../generated/prisma/client.js';
import type { Runtime } from '../runtime.js';
import { publishDeviceChanged } from './devices.js';

type Tx = Prisma.TransactionClient;

/** The labels that may name a device, after the source, in order of preference. */
export const DEVICE_LABELS = ['host', 'device', 'instance', 'node'] as const;

/** `instance` is `host:port` in Prometheus; `[v6]:port` and bare names stay as they are otherwise. */
function withoutPort(v: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(v);
  if (bracketed) return bracketed[1]!;
  const m = /^([^:]+):\d+$/.exec(v);
  return m ? m[1]! : v;
}

/** The names an event may call its device by, most preferred first. */
export function deviceCandidates(ev: Pick<Event, 'source' | 'labels'>): string[] {
  const labels = (ev.labels ?? {}) as Record<string, unknown>;
  const out = [ev.source];
  for (const k of DEVICE_LABELS) {
    const v = labels[k];
    if (typeof v !== 'string' || v.length === 0) continue;
    out.push(k === 'instance' ? withoutPort(v) : v);
  }
  return [...new Set(out.filter((n) => n.length > 0))];
}

/** A device that events of a batch were linked to. */
export interface LinkedDevice {
  id: string;
  tenantId: string;
  name: string;
}

/**
 * Sets `deviceId` on the events of the batch that have none and name a device of their tenant, in
 * memory and in the table (one UPDATE per device found). Returns the devices that got events.
 */
export async function linkEventsToDevices(tx: Tx, events: Event[]): Promise<LinkedDevice[]> {
  const unlinked = events.filter((e) => !e.deviceId);
  if (unlinked.length === 0) return [];
  const names = new Set<string>();
  const tenantIds = new Set<string>();
  for (const e of unlinked) {
    tenantIds.add(e.tenantId);
    for (const n of deviceCandidates(e)) names.add(n);
  }
  const list = [...names];
  const devices = await tx.device.findMany({
    where: { tenantId: { in: [...tenantIds] }, OR: [{ name: { in: list } }, { aliases: { hasSome: list } }] },
    select: { id: true, tenantId: true, name: true, aliases: true },
  });
  if (devices.length === 0) return [];
  // A device's own name outranks another device's alias.
  const byName = new Map<string, string>();
  for (const d of devices) for (const a of d.aliases) byName.set(`${d.tenantId}\u0000${a}`, d.id);
  for (const d of devices) byName.set(`${d.tenantId}\u0000${d.name}`, d.id);
  const linked = new Map<string, string[]>();
  for (const e of unlinked) {
    const id = deviceCandidates(e)
      .map((n) => byName.get(`${e.tenantId}\u0000${n}`))
      .find((x) => x !== undefined);
    if (!id) continue;
    e.deviceId = id;
    const ids = linked.get(id);
    if (ids) ids.push(e.id);
    else linked.set(id, [e.id]);
  }
  for (const [deviceId, ids] of [...linked].sort((a, b) => (a[0] < b[0] ? -1 : 1)))
    await tx.event.updateMany({ where: { id: { in: ids } }, data: { deviceId } });
  return devices.filter((d) => linked.has(d.id)).map(({ id, tenantId, name }) => ({ id, tenantId, name }));
}

/**
 * After commit: `deviceChanged` with change `events_linked`, once per device of the batch, so a device
 * page shows its new events (they are linked at evaluation, after `eventAdded` went out unlinked).
 */
export function announceLinkedEvents(rt: Runtime, devices: LinkedDevice[]): void {
  for (const d of devices) publishDeviceChanged(rt, d, 'events_linked');
}
