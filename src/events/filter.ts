/**
 * Timeline filters, shared by GET /events, the GraphQL `events` connection, the SSE stream and the
 * `eventAdded` subscription: one definition, compiled to a Prisma `where` for stored events and to a
 * predicate for live ones.
 */
import type { Prisma } from '../generated/prisma/client.js';
import { invalid } from '../errors.js';
import type { EventSeverity } from './envelope.js';

/** Window limits of docs/spec.md "Limits" (two weeks, 500 rows). */
export const TIMELINE_LIMITS = { defaultSinceHours: 24, maxSinceHours: 336, defaultLimit: 100, maxLimit: 500 } as const;

export interface EventFilter {
  module?: string | null;
  severities?: EventSeverity[] | null;
  /** Exact type, or a glob where `*` matches any run of characters (`deploy.*`). */
  type?: string | null;
  source?: string | null;
  /** Every given label must be present with exactly this value (subset match). */
  labels?: Record<string, string> | null;
  /** Case-insensitive substring of summary, type or source. */
  search?: string | null;
  /** Only events received in the last N hours (1 to 336). */
  sinceHours?: number | null;
}

/** The fields of a stored or just-accepted event the filter looks at. */
export interface FilterableEvent {
  type: string;
  module: string | null;
  source: string;
  summary: string | null;
  severity: string;
  labels: unknown;
  receivedAt: Date | string;
}

/** Checks the parts of a filter that have bounds; throws a 422 naming the field. */
export function assertValidFilter(filter: EventFilter, field: (name: string) => string[] = (n) => ['filter', n]): void {
  const h = filter.sinceHours;
  if (h != null && (!Number.isInteger(h) || h < 1 || h > TIMELINE_LIMITS.maxSinceHours)) {
    throw invalid(field('sinceHours'), `must be an integer from 1 to ${TIMELINE_LIMITS.maxSinceHours}`);
  }
  if (filter.labels != null) {
    if (
      typeof filter.labels !== 'object' ||
      Array.isArray(filter.labels) ||
      Object.values(filter.labels).some((v) => typeof v !== 'string')
    ) {
      throw invalid(field('labels'), 'must be an object of string keys to string values');
    }
  }
}

/** The literal parts of a `*` glob: `deploy.*` → ["deploy.", ""]. */
function globParts(glob: string): string[] {
  return glob.split('*');
}

/** True when `value` matches the `*` glob (anchored at both ends). */
export function globMatches(glob: string, value: string): boolean {
  const parts = globParts(glob);
  if (parts.length === 1) return glob === value;
  const first = parts[0];
  const last = parts[parts.length - 1];
  if (!value.startsWith(first) || value.length < first.length + last.length || !value.endsWith(last)) return false;
  let pos = first.length;
  const end = value.length - last.length;
  for (const mid of parts.slice(1, -1)) {
    const at = value.indexOf(mid, pos);
    if (at < 0 || at + mid.length > end) return false;
    pos = at + mid.length;
  }
  return true;
}

/**
 * The glob as Prisma string conditions: starts with the part before the first `*`, ends with the part
 * after the last, contains each part in between. Exact for the common shapes (`a.*`, `*.b`, `*x*`,
 * `a*b`); for several inner parts their order is not enforced in the database.
 */
function globWhere(glob: string): Prisma.EventWhereInput {
  const parts = globParts(glob);
  if (parts.length === 1) return { type: glob };
  const and: Prisma.EventWhereInput[] = [];
  const first = parts[0];
  const last = parts[parts.length - 1];
  if (first) and.push({ type: { startsWith: first } });
  if (last) and.push({ type: { endsWith: last } });
  for (const mid of parts.slice(1, -1)) if (mid) and.push({ type: { contains: mid } });
  return and.length ? { AND: and } : {};
}

/** The Prisma `where` selecting stored events that pass the filter (tenant scope is added by ctx.db). */
export function eventWhere(filter: EventFilter, now: Date): Prisma.EventWhereInput {
  const and: Prisma.EventWhereInput[] = [];
  if (filter.module) and.push({ module: filter.module });
  if (filter.severities?.length) and.push({ severity: { in: filter.severities } });
  if (filter.type) and.push(globWhere(filter.type));
  if (filter.source) and.push({ source: filter.source });
  for (const [k, v] of Object.entries(filter.labels ?? {})) and.push({ labels: { path: [k], equals: v } });
  if (filter.search) {
    const q = filter.search;
    and.push({
      OR: [
        { summary: { contains: q, mode: 'insensitive' } },
        { type: { contains: q, mode: 'insensitive' } },
        { source: { contains: q, mode: 'insensitive' } },
      ],
    });
  }
  if (filter.sinceHours) and.push({ receivedAt: { gte: new Date(now.getTime() - filter.sinceHours * 3600_000) } });
  return and.length ? { AND: and } : {};
}

/** True when a live event passes the filter (same semantics as `eventWhere`). */
export function matchesEventFilter(e: FilterableEvent, filter: EventFilter, now: Date): boolean {
  if (filter.module && e.module !== filter.module) return false;
  if (filter.severities?.length && !filter.severities.includes(e.severity as EventSeverity)) return false;
  if (filter.type && !globMatches(filter.type, e.type)) return false;
  if (filter.source && e.source !== filter.source) return false;
  if (filter.labels) {
    const labels = (e.labels ?? {}) as Record<string, unknown>;
    for (const [k, v] of Object.entries(filter.labels)) if (labels[k] !== v) return false;
  }
  if (filter.search) {
    const q = filter.search.toLowerCase();
    if (![e.summary ?? '', e.type, e.source].some((s) => s.toLowerCase().includes(q))) return false;
  }
  if (filter.sinceHours && new Date(e.receivedAt).getTime() < now.getTime() - filter.sinceHours * 3600_000)
    return false;
  return true;
}
