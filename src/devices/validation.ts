/**
 * Validation of device fields, shared by GraphQL CRUD and the source-of-truth webhook.
 */
import net from 'node:net';
import { ValidationFailed, type FieldProblem } from '../errors.js';

export interface DeviceFields {
  name?: string | null;
  role?: string | null;
  site?: string | null;
  platform?: string | null;
  managementAddress?: string | null;
  labels?: Record<string, string> | null;
  /** Other names events call the device by (src/devices/event-links.ts). */
  aliases?: string[] | null;
}

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const MAX_TEXT = 200;
const MAX_LABELS = 64;
const MAX_ALIASES = 20;

/** Problems with the given fields (only those present are checked); `requireName` for creates. */
function deviceFieldProblems(f: DeviceFields, requireName: boolean, at: string[] = ['input']): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (requireName || f.name !== undefined) {
    if (typeof f.name !== 'string' || !f.name.trim()) problems.push({ loc: [...at, 'name'], msg: 'is required' });
    else if (f.name.length > MAX_TEXT)
      problems.push({ loc: [...at, 'name'], msg: `must be at most ${MAX_TEXT} characters` });
  }
  for (const k of ['role', 'site', 'platform'] as const) {
    const v = f[k];
    if (v != null && v.length > MAX_TEXT)
      problems.push({ loc: [...at, k], msg: `must be at most ${MAX_TEXT} characters` });
  }
  if (f.managementAddress != null && !net.isIP(f.managementAddress) && !HOSTNAME.test(f.managementAddress)) {
    problems.push({ loc: [...at, 'managementAddress'], msg: 'must be an IP address or a host name' });
  }
  if (f.labels != null) {
    const entries = typeof f.labels === 'object' && !Array.isArray(f.labels) ? Object.entries(f.labels) : null;
    if (!entries) problems.push({ loc: [...at, 'labels'], msg: 'must be an object of string values' });
    else if (entries.length > MAX_LABELS)
      problems.push({ loc: [...at, 'labels'], msg: `must have at most ${MAX_LABELS} entries` });
    else
      for (const [k, v] of entries)
        if (typeof v !== 'string') problems.push({ loc: [...at, 'labels', k], msg: 'must be a string' });
  }
  if (f.aliases != null) {
    if (f.aliases.length > MAX_ALIASES)
      problems.push({ loc: [...at, 'aliases'], msg: `must have at most ${MAX_ALIASES} entries` });
    f.aliases.forEach((a, i) => {
      if (typeof a !== 'string' || !a.trim() || a.length > MAX_TEXT)
        problems.push({ loc: [...at, 'aliases', String(i)], msg: `must be 1 to ${MAX_TEXT} characters` });
    });
  }
  return problems;
}

/** Throws ValidationFailed (422) listing every offending field. */
export function assertValidDevice(f: DeviceFields, requireName: boolean, at?: string[]): void {
  const problems = deviceFieldProblems(f, requireName, at);
  if (problems.length) throw new ValidationFailed(problems);
}
