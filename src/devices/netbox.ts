/**
 * NetBox-style source-of-truth webhook bodies, mapped onto device fields. Pure: no I/O.
 *
 * Body: `{ event: "created"|"updated"|"deleted", model: "dcim.device"|"device", timestamp, username,
 * request_id, data: { id, name, role|device_role: {name|slug}, site, platform, primary_ip|primary_ip4:
 * {address}, status: {value}, custom_fields, tags: [{name}] }, snapshots }`.
 * Labels: custom fields with scalar values (as strings), `status` from `data.status.value`, and `tags`
 * as the comma-joined sorted tag names.
 */
import { ValidationFailed, type FieldProblem } from '../errors.js';
import type { DeviceFields } from './validation.js';

export type NetboxChange =
  | {
      action: 'upsert';
      event: 'created' | 'updated';
      externalId: string;
      fields: Omit<DeviceFields, 'aliases'> & { name: string };
    }
  | { action: 'delete'; externalId: string; name: string | null }
  | { action: 'ignore'; reason: string };

const DEVICE_MODELS = new Set(['dcim.device', 'device']);

function obj(v: unknown): Record<string, unknown> | null {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** `{name}` or `{slug}` of a nested NetBox object (or a bare string). */
function nestedName(v: unknown): string | null {
  if (typeof v === 'string') return v || null;
  const o = obj(v);
  if (!o) return null;
  const n = o.name ?? o.slug ?? o.display;
  return typeof n === 'string' && n ? n : null;
}

/** NetBox addresses carry a prefix length (`10.0.0.1/24`); the management address is the host part. */
function hostAddress(v: unknown): string | null {
  const o = obj(v);
  const a = o?.address ?? (typeof v === 'string' ? v : null);
  if (typeof a !== 'string' || !a) return null;
  return a.split('/')[0];
}

function labelsOf(data: Record<string, unknown>): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj(data.custom_fields) ?? {})) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') labels[k] = String(v);
  }
  const status = obj(data.status)?.value ?? data.status;
  if (typeof status === 'string' && status) labels.status = status;
  const tags = Array.isArray(data.tags)
    ? data.tags
        .map(nestedName)
        .filter((t): t is string => !!t)
        .sort()
    : [];
  if (tags.length) labels.tags = tags.join(',');
  return labels;
}

/** Interprets one webhook body; 422 (ValidationFailed) for a device event without the fields it needs. */
export function parseNetboxWebhook(body: unknown): NetboxChange {
  const b = obj(body);
  if (!b) throw new ValidationFailed([{ loc: [], msg: 'must be a JSON object' }]);
  const problems: FieldProblem[] = [];
  const event = b.event;
  if (event !== 'created' && event !== 'updated' && event !== 'deleted')
    problems.push({ loc: ['event'], msg: 'must be created, updated or deleted' });
  if (typeof b.model !== 'string') problems.push({ loc: ['model'], msg: 'is required' });
  const data = obj(b.data);
  if (!data) problems.push({ loc: ['data'], msg: 'must be an object' });
  if (problems.length) throw new ValidationFailed(problems);
  if (!DEVICE_MODELS.has(b.model as string))
    return { action: 'ignore', reason: `model ${String(b.model)} is not a device` };

  const id = data!.id;
  if ((typeof id !== 'number' && typeof id !== 'string') || id === '')
    problems.push({ loc: ['data', 'id'], msg: 'is required' });
  const name = typeof data!.name === 'string' && data!.name.trim() ? data!.name.trim() : null;
  if (event !== 'deleted' && !name) problems.push({ loc: ['data', 'name'], msg: 'is required for a device' });
  if (problems.length) throw new ValidationFailed(problems);

  const externalId = String(id);
  if (event === 'deleted') return { action: 'delete', externalId, name };
  return {
    action: 'upsert',
    event: event as 'created' | 'updated',
    externalId,
    fields: {
      name: name!,
      role: nestedName(data!.role ?? data!.device_role),
      site: nestedName(data!.site),
      platform: nestedName(data!.platform),
      managementAddress: hostAddress(data!.primary_ip ?? data!.primary_ip4 ?? data!.primary_ip6),
      labels: labelsOf(data!),
    },
  };
}
