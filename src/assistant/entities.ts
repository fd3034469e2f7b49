/**
 * The entities an alert or an event is about, read from its labels and payload: the documented set of
 * entity keys (host, node, instance, service, namespace, pod, job, device, gpu, ...) grouped into
 * classes, so `host=web-1` on an alert and `node=web-1:9100` on an event name the same machine.
 * Pure: no database. Triage (src/assistant/relatedness.ts) compares two entity lists.
 */

/** How strongly a shared value of the class ties two records together. */
export type EntityStrength = 'specific' | 'broad';

export interface EntityClass {
  name: string;
  keys: readonly string[];
  strength: EntityStrength;
}

/**
 * The documented entity keys (docs/triage.md). `specific` classes name one thing (a machine, a
 * service, a pod); `broad` ones name a group many unrelated things share (a namespace, a site).
 */
export const ENTITY_CLASSES: readonly EntityClass[] = [
  {
    name: 'machine',
    keys: ['host', 'hostname', 'node', 'nodename', 'node_name', 'instance', 'device', 'server', 'machine'],
    strength: 'specific',
  },
  {
    name: 'service',
    keys: ['service', 'service_name', 'app', 'application', 'deployment', 'component', 'workload'],
    strength: 'specific',
  },
  { name: 'pod', keys: ['pod', 'pod_name'], strength: 'specific' },
  { name: 'container', keys: ['container', 'container_name'], strength: 'specific' },
  { name: 'job', keys: ['job', 'job_id', 'job_name'], strength: 'specific' },
  { name: 'gpu', keys: ['gpu_uuid', 'uuid', 'gpu'], strength: 'specific' },
  { name: 'integration', keys: ['integration_id'], strength: 'specific' },
  { name: 'namespace', keys: ['namespace', 'kubernetes_namespace'], strength: 'broad' },
  { name: 'cluster', keys: ['cluster'], strength: 'broad' },
  { name: 'site', keys: ['site', 'datacenter', 'dc'], strength: 'broad' },
];

/** Every documented key, for docs/triage.md and the settings query. */
export const ENTITY_KEYS: readonly string[] = ENTITY_CLASSES.flatMap((c) => c.keys);

const CLASS_OF_KEY = new Map<string, EntityClass>(ENTITY_CLASSES.flatMap((c) => c.keys.map((k) => [k, c] as const)));

/** One entity a record names: `service=checkout` read from its labels. */
export interface Entity {
  /** The class (`machine`, `service`, ...) or `dedup:<key>` for a rule's own dedup label. */
  cls: string;
  key: string;
  /** The value as written (shown to people). */
  value: string;
  /** The value compared (lowercase, port and domain dropped for machines). */
  norm: string;
  strength: EntityStrength;
  /** Where it was read: `label`, `payload`, or a topology note (`GPU GPU-1 is on node n7`). */
  via: string;
  /** Set when known through the service's records rather than read from the record itself. */
  topology?: 'site' | 'gpu_node' | 'integration';
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** The comparable form of a value of class `cls`. */
export function normalizeEntity(cls: string, value: string): string {
  let v = value.trim().toLowerCase();
  if (cls === 'machine') {
    v = v.replace(/^\[?([^\]]*?)\]?:\d+$/, '$1'); // instance "web-1:9100" is the machine "web-1"
    if (!IPV4.test(v) && !v.includes(':')) v = v.split('.')[0]!; // "web-1.dc1.example" is "web-1"
  }
  return v;
}

function scalar(v: unknown): string | null {
  if (typeof v === 'string') return v.trim() && v.length <= 300 ? v.trim() : null;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

/** A GPU index ("0") names no GPU by itself: only a GPU UUID identifies one. */
function identifies(cls: string, value: string): boolean {
  if (cls === 'gpu') return /^gpu-/i.test(value) || /^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(value);
  return true;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/**
 * The entities in a labels object and a payload (its top-level fields and a nested `labels` object,
 * as Alertmanager and Prometheus send them). `extraKeys` are the rule's dedup labels: keys outside the
 * documented set become classes of their own (`dedup:<key>`), compared only with the same key.
 */
export function entitiesOf(labels: unknown, payload: unknown, extraKeys: readonly string[] = []): Entity[] {
  const out: Entity[] = [];
  const seen = new Set<string>();
  const add = (key: string, raw: unknown, via: string) => {
    const k = key.toLowerCase();
    const value = scalar(raw);
    if (value === null) return;
    const known = CLASS_OF_KEY.get(k);
    const cls = known ? known.name : extraKeys.includes(k) ? `dedup:${k}` : null;
    if (!cls || !identifies(cls, value)) return;
    const norm = normalizeEntity(cls, value);
    if (!norm || seen.has(`${cls}\u0000${norm}`)) return;
    seen.add(`${cls}\u0000${norm}`);
    out.push({ cls, key: k, value, norm, strength: known?.strength ?? 'specific', via });
  };
  const read = (obj: unknown, via: string) => {
    if (!isObject(obj)) return;
    for (const [k, v] of Object.entries(obj)) add(k, v, via);
  };
  read(labels, 'label');
  read(payload, 'payload');
  if (isObject(payload)) read(payload.labels, 'payload');
  return out;
}

/** An entity known from the service's own records (a device's name, a GPU's node). */
export function entity(cls: string, key: string, value: string, via: string, topology?: Entity['topology']): Entity {
  const known = ENTITY_CLASSES.find((c) => c.name === cls);
  return {
    cls,
    key,
    value,
    norm: normalizeEntity(cls, value),
    strength: known?.strength ?? 'specific',
    via,
    ...(topology ? { topology } : {}),
  };
}

/** The label and payload keys a dedup key template reads (`{{labels.svc}}:{{payload.region}}` → svc, region). */
export function dedupKeysOf(template: string | null | undefined): string[] {
  if (!template) return [];
  return [...template.matchAll(/\{\{\s*(?:labels|payload)\.([A-Za-z0-9_\-]+)/g)].map((m) => m[1]!.toLowerCase());
}
