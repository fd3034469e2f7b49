/**
 * The query builder's state and the query document (the JSON the API takes: snake_case keys,
 * lowercase values), both ways; and the field catalogue read from `reportSchema`. `reportSchema` and
 * a query document are JSON scalars: gql.tada types them as unknown, so they are read here with checks,
 * and the catalogue's types are inferred from the reading code.
 */
import type { Json } from '../../lib/graphql';

const objectOf = (v: Json): Readonly<Record<string, Json>> =>
  v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v)) : {};
const arrayOf = (v: Json): readonly Json[] => (Array.isArray(v) ? v : []);
const stringsOf = (v: Json): string[] => arrayOf(v).filter((x): x is string => typeof x === 'string');

function fieldOf(v: Json) {
  const f = objectOf(v);
  return {
    name: String(f.name ?? ''),
    type: String(f.type ?? 'string'),
    ops: stringsOf(f.ops),
    description: typeof f.description === 'string' ? f.description : undefined,
    values: Array.isArray(f.values) ? stringsOf(f.values) : undefined,
  };
}
export type CatalogueField = ReturnType<typeof fieldOf>;

function entityOf(v: Json) {
  const e = objectOf(v);
  return {
    entity: String(e.entity ?? ''),
    timeField: String(e.time_field ?? 'time'),
    windowOptional: e.window_optional === true,
    fields: arrayOf(e.fields).map(fieldOf),
  };
}
export type CatalogueEntity = ReturnType<typeof entityOf>;

/** The parts of `reportSchema` the builder uses: entities and their fields, the time buckets, the default row limit. */
export function catalogueOf(reportSchema: Json) {
  const doc = objectOf(reportSchema);
  const bucket = objectOf(objectOf(objectOf(doc.schema).properties).bucket);
  const limit = objectOf(doc.limits).defaultLimit;
  return {
    entities: arrayOf(doc.catalogue).map(entityOf),
    buckets: stringsOf(bucket.enum),
    defaultLimit: typeof limit === 'number' ? limit : 1000,
  };
}

export interface FilterRow {
  field: string;
  op: string;
  value: string;
}
/** What the builder's inputs hold (text, as typed). */
export interface Builder {
  entity: string;
  sinceHours: string;
  bucket: string;
  groupBy: string;
  aggregate: string;
  aggregateField: string;
  limit: string;
  filters: FilterRow[];
}

export const EMPTY_BUILDER: Builder = {
  entity: 'events',
  sinceHours: '24',
  bucket: '',
  groupBy: '',
  aggregate: '',
  aggregateField: '',
  limit: '',
  filters: [],
};
export const AGGREGATES = ['', 'count', 'count_distinct', 'sum', 'avg', 'min', 'max', 'p50', 'p95'];

/** The builder's state → the query document the API takes. */
export function queryOf(b: Builder, fields: readonly CatalogueField[]): Record<string, Json> {
  const q: Record<string, Json> = { entity: b.entity };
  q.since_hours = b.sinceHours === '' ? null : Number(b.sinceHours);
  if (b.bucket) q.bucket = b.bucket;
  if (b.groupBy) q.group_by = [b.groupBy];
  if (b.aggregate)
    q.aggregate =
      b.aggregateField && b.aggregate !== 'count'
        ? [{ fn: b.aggregate, field: b.aggregateField }]
        : b.aggregate === 'count'
          ? 'count'
          : [{ fn: b.aggregate }];
  if (b.limit) q.limit = Number(b.limit);
  const filters = b.filters
    .filter((f) => f.field && f.op)
    .map((f) => {
      const type = fields.find((x) => x.name === f.field)?.type ?? (f.field.startsWith('payload.') ? 'json' : 'string');
      const one = (v: string): Json =>
        type === 'integer' || (type === 'json' && v !== '' && !Number.isNaN(Number(v)))
          ? Number(v)
          : type === 'boolean'
            ? v === 'true'
            : v;
      if (f.op === 'exists') return { field: f.field, op: f.op, value: f.value !== 'false' };
      if (f.op === 'in' || f.op === 'not_in')
        return { field: f.field, op: f.op, value: f.value.split(',').map((s) => one(s.trim())) };
      return { field: f.field, op: f.op, value: one(f.value) };
    });
  if (filters.length) q.filters = filters;
  return q;
}

/** A query document (a saved report's, a translation's) → the builder's state. */
export function builderOf(query: Json): Builder {
  const q = objectOf(query);
  const agg = q.aggregate;
  const first = Array.isArray(agg) ? objectOf(agg[0]) : typeof agg === 'string' ? { fn: agg } : null;
  return {
    entity: String(q.entity ?? 'events'),
    sinceHours: q.since_hours === null ? '' : String(q.since_hours ?? 24),
    bucket: typeof q.bucket === 'string' ? q.bucket : '',
    groupBy: Array.isArray(q.group_by) ? String(q.group_by[0] ?? '') : '',
    aggregate: first?.fn ? String(first.fn) : '',
    aggregateField: first && 'field' in first && first.field ? String(first.field) : '',
    limit: q.limit ? String(q.limit) : '',
    filters: arrayOf(q.filters)
      .map(objectOf)
      .map((f) => ({
        field: String(f.field ?? ''),
        op: String(f.op ?? 'eq'),
        value: Array.isArray(f.value) ? f.value.join(',') : String(f.value ?? ''),
      })),
  };
}
