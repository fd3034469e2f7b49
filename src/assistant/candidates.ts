/**
 * Reads what triage ranks: the alert's side (its labels when it has them, else its opening events'
 * labels and payload, its rule's dedup labels, its device and that device's site, the nodes of its
 * GPUs, the integration it came from) and the candidates (changes by the tenant's vocabulary and
 * known precursor faults in the window before the alert), then scores each with
 * src/assistant/relatedness.ts. Reads through `ctx.db`: the asking user's tenant only.
 */
import type { Ctx } from '../context.js';
import type { Alert, Device, Event } from '../generated/prisma/client.js';
import { dedupKeysOf, entitiesOf, entity, type Entity } from './entities.js';
import {
  byRank,
  causeText,
  confidenceOf,
  eventLabel,
  relationsOf,
  scoreOf,
  uniqueItems,
  type AlertSide,
} from './relatedness.js';
import { isChangeType, precursorOf, type ChangeVocabulary } from './vocabulary.js';
import type { EvidenceItem, LikelyCause, RankedCandidate, TriageFacts } from './types.js';

/** How far back before the alert candidates are read. */
export const CANDIDATE_WINDOW_MINUTES = 240;
/** Most events of the window read (newest first). */
export const MAX_WINDOW_EVENTS = 2000;

type Rule = TriageFacts['rule'];

/** The alert with what ties other records to it, and the records people can open for it. */
export interface AlertScope {
  side: AlertSide;
  device: Device | null;
  openingEvents: Event[];
  symptomTypes: Set<string>;
  items: EvidenceItem[];
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** GPU UUID → node, for the GPUs named in `entities`. */
async function gpuNodes(
  ctx: Ctx,
  entities: Entity[],
): Promise<Map<string, { id: string; uuid: string; node: string }>> {
  const uuids = [...new Set(entities.filter((e) => e.cls === 'gpu').map((e) => e.value))];
  if (uuids.length === 0) return new Map();
  const rows = await ctx.db.gpu.findMany({
    where: { uuid: { in: uuids, mode: 'insensitive' } },
    select: { id: true, uuid: true, node: true },
  });
  return new Map(rows.map((g) => [g.uuid.toLowerCase(), g]));
}

/** Adds the node of every GPU named (a GPU and its node are one machine). */
function withGpuNodes(entities: Entity[], nodes: Map<string, { uuid: string; node: string }>): Entity[] {
  const out = [...entities];
  for (const e of entities) {
    const g = e.cls === 'gpu' ? nodes.get(e.norm) : undefined;
    if (g) out.push(entity('machine', 'node', g.node, `GPU ${g.uuid} is on node ${g.node}`, 'gpu_node'));
  }
  return out;
}

/** The alert's side of the comparison. */
export async function alertScope(ctx: Ctx, alert: Alert, rule: Rule): Promise<AlertScope> {
  const links = await ctx.db.alertEvent.findMany({
    where: { alertId: alert.id },
    include: { event: true },
    orderBy: [{ createdAt: 'asc' }, { eventId: 'asc' }],
    take: 20,
  });
  const openingEvents = links.map((l) => l.event);
  const dedupKeys = dedupKeysOf(rule?.dedupKeyTemplate);
  // Alert labels (when the alert has them) come first; the opening events add what they carry.
  const own = alert as Alert & { labels?: unknown; annotations?: unknown };
  let entities = [
    ...entitiesOf(own.labels, null, dedupKeys),
    ...openingEvents.flatMap((e) => entitiesOf(e.labels, e.payload, dedupKeys)),
  ];
  const integrationId = /^integration:([0-9a-f-]{36}):/i.exec(alert.dedupKey)?.[1];
  if (integrationId) entities.push(entity('integration', 'integration_id', integrationId, 'label'));

  const deviceId = alert.deviceId ?? openingEvents.find((e) => e.deviceId)?.deviceId ?? null;
  const machineNames = [
    ...new Set(
      [alert.source, ...entities.filter((e) => e.cls === 'machine').map((e) => e.value)].filter(
        (v): v is string => !!v,
      ),
    ),
  ];
  const device = deviceId
    ? await ctx.db.device.findUnique({ where: { id: deviceId } })
    : machineNames.length
      ? await ctx.db.device.findFirst({ where: { name: { in: machineNames } }, orderBy: { createdAt: 'asc' } })
      : null;
  const items: EvidenceItem[] = [];
  if (device) {
    entities.push(entity('machine', 'device', device.name, 'label'));
    if (device.site)
      entities.push(entity('site', 'site', device.site, `device ${device.name} is at site ${device.site}`, 'site'));
    items.push({ kind: 'device', id: device.id, label: `device ${device.name}` });
  }
  const gpus = await gpuNodes(ctx, entities);
  entities = withGpuNodes(entities, gpus);
  for (const g of gpus.values()) items.push({ kind: 'gpu', id: g.id, label: `GPU ${g.uuid} on ${g.node}` });

  const sources = new Set<string>(
    [alert.source, ...openingEvents.map((e) => e.source)].filter((v): v is string => !!v),
  );
  const integrationIds = [...new Set(entities.filter((e) => e.cls === 'integration').map((e) => e.value))];
  if (integrationIds.length) {
    const integrations = await ctx.db.integration.findMany({
      where: { id: { in: integrationIds } },
      select: { id: true, name: true, provider: true },
    });
    for (const i of integrations) {
      entities = entities.map((e) =>
        e.cls === 'integration' && e.norm === i.id.toLowerCase()
          ? { ...e, topology: 'integration' as const, via: `the alert comes from integration ${i.name}` }
          : e,
      );
      sources.add(`${i.provider}/${i.name}`);
      items.push({ kind: 'integration', id: i.id, label: `integration ${i.name}` });
    }
  }
  const symptomTypes = new Set(openingEvents.map((e) => e.type));
  const symptomText = [...symptomTypes, rule?.name ?? '', rule?.typeGlob ?? '', alert.summary].join(' ').toLowerCase();
  return {
    side: { deviceId: device?.id ?? null, deviceName: device?.name ?? null, sources, entities, symptomText },
    device,
    openingEvents,
    symptomTypes,
    items,
  };
}

/** Evidence items for a candidate: the event, then what ties it (device, proposal it applied). */
function candidateItems(e: Event, device: Device | undefined, related: boolean): EvidenceItem[] {
  const items: EvidenceItem[] = [{ kind: 'event', id: e.id, label: eventLabel(e) }];
  const p = isObj(e.payload) ? (e.payload.proposal_id ?? e.payload.proposalId) : undefined;
  if (typeof p === 'string' && /^[0-9a-f-]{36}$/i.test(p))
    items.push({ kind: 'proposal', id: p.toLowerCase(), label: `proposal applied by ${e.type}` });
  if (device && related) items.push({ kind: 'device', id: device.id, label: `device ${device.name}` });
  return items;
}

/**
 * Candidates before the alert, scored. Events of the alert itself and earlier events of its own
 * symptom types (a recurrence is not a cause) are left out.
 */
export async function rankCandidates(
  ctx: Ctx,
  alert: Alert,
  scope: AlertScope,
  vocab: ChangeVocabulary,
  windowMinutes = CANDIDATE_WINDOW_MINUTES,
): Promise<RankedCandidate[]> {
  const at = alert.firstSeenAt;
  const rows = await ctx.db.event.findMany({
    where: { receivedAt: { gte: new Date(at.getTime() - windowMinutes * 60_000), lte: at } },
    orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }],
    take: MAX_WINDOW_EVENTS,
  });
  const own = new Set(scope.openingEvents.map((e) => e.id));
  const picked = rows
    .filter((e) => !own.has(e.id) && !scope.symptomTypes.has(e.type))
    .map((e) => ({ e, isChange: isChangeType(vocab, e.type), precursor: precursorOf(e.type) }))
    .filter((c) => c.isChange || c.precursor);
  const deviceIds = [...new Set(picked.map((c) => c.e.deviceId).filter((v): v is string => !!v))];
  const devices = new Map(
    (deviceIds.length ? await ctx.db.device.findMany({ where: { id: { in: deviceIds } } }) : []).map((d) => [d.id, d]),
  );
  const read = picked.map((c) => {
    const d = c.e.deviceId ? devices.get(c.e.deviceId) : undefined;
    const ents = entitiesOf(
      c.e.labels,
      c.e.payload,
      scope.side.entities.filter((x) => x.cls.startsWith('dedup:')).map((x) => x.key),
    );
    if (d) ents.push(entity('machine', 'device', d.name, 'label'));
    if (d?.site) ents.push(entity('site', 'site', d.site, `device ${d.name} is at site ${d.site}`, 'site'));
    return { ...c, d, ents };
  });
  const gpus = await gpuNodes(
    ctx,
    read.flatMap((r) => r.ents),
  );
  return read
    .map(({ e, isChange, precursor, d, ents }): RankedCandidate => {
      const minutesBefore = Math.max(0, (at.getTime() - e.receivedAt.getTime()) / 60_000);
      const relations = relationsOf(scope.side, {
        deviceId: e.deviceId,
        source: e.source,
        entities: withGpuNodes(ents, gpus),
        minutesBefore,
        precursor,
      });
      const score = scoreOf(relations, minutesBefore);
      return {
        event: e,
        isChange,
        minutesBefore,
        relations,
        score,
        confidence: confidenceOf(score),
        evidence: uniqueItems([...candidateItems(e, d, score > 0), ...ties(scope, relations)]),
      };
    })
    .sort(byRank);
}

/** The scope's records that tie a candidate to the alert (its device, GPU or integration). */
function ties(scope: AlertScope, relations: RankedCandidate['relations']): EvidenceItem[] {
  const kinds = new Set(relations.map((r) => r.kind));
  return scope.items.filter(
    (i) =>
      (i.kind === 'device' && (kinds.has('same_device') || kinds.has('site'))) ||
      (i.kind === 'gpu' && kinds.has('gpu_node')) ||
      (i.kind === 'integration' && kinds.has('integration')),
  );
}

/** The likely cause a related candidate states: what happened and the relations that earned it. */
export function causeOf(c: RankedCandidate): LikelyCause {
  return {
    cause: causeText(c.event.type, c.event.source, c.relations, c.minutesBefore),
    confidence: c.confidence ?? 'low',
    score: c.score,
    relations: c.relations.map((r) => ({ kind: r.kind, detail: r.detail })),
    evidence: c.evidence,
  };
}
