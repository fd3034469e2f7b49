/**
 * The shape of a validated report query (src/reports/validate.ts makes one): the language's limits,
 * the normalized query, and the output columns (names and types) it produces.
 */
import {
  resolveField,
  typeOf,
  type AggregateFn,
  type Bucket,
  type Entity,
  type FieldType,
  type Op,
} from './catalogue.js';

/** The contract's limits of the query language. */
export const REPORT_LIMITS = {
  defaultSinceHours: 24,
  /** 90 days. */
  maxSinceHours: 2160,
  defaultLimit: 1000,
  maxLimit: 10_000,
  /** Exports stream from a cursor, so they may be far larger than a query answer. */
  maxExportRows: 2_000_000,
  maxFilters: 20,
  maxInValues: 100,
  maxGroupBy: 5,
  maxAggregates: 8,
  maxOrderBy: 5,
  maxColumns: 50,
  maxStringValue: 1000,
} as const;

export interface ReportFilter {
  field: string;
  op: Op;
  value?: unknown;
}
export interface ReportAggregate {
  fn: AggregateFn;
  field?: string;
}
export interface ReportOrder {
  field: string;
  dir: 'asc' | 'desc';
}

/** A validated, normalized query. */
export interface ReportQuery {
  entity: Entity;
  since_hours: number | null;
  filters: ReportFilter[];
  group_by: string[];
  aggregate: ReportAggregate[];
  bucket: Bucket | null;
  order_by: ReportOrder[];
  limit: number;
  columns: string[];
}

export type OutputType = 'string' | 'integer' | 'number' | 'timestamp' | 'boolean' | 'json';
export interface OutputColumn {
  name: string;
  type: OutputType;
}

export function outputTypeOf(t: FieldType): OutputType {
  if (t === 'integer' || t === 'timestamp' || t === 'boolean' || t === 'json') return t;
  return 'string';
}

/** The output column name of an aggregate: `count`, `count_distinct_source`, `p95_count`. */
export function aggregateName(a: ReportAggregate): string {
  return a.fn === 'count' && !a.field ? 'count' : `${a.fn}_${a.field}`;
}

/** The output columns (names and types) a valid query produces, in order. */
export function outputColumns(q: ReportQuery): OutputColumn[] {
  const typeOfName = (name: string): FieldType => {
    const r = resolveField(q.entity, name);
    return 'error' in r ? 'string' : typeOf(r);
  };
  if (q.aggregate.length === 0) return q.columns.map((name) => ({ name, type: outputTypeOf(typeOfName(name)) }));
  const cols: OutputColumn[] = [];
  if (q.bucket) cols.push({ name: 'bucket', type: 'timestamp' });
  for (const g of q.group_by) {
    const t = typeOfName(g);
    cols.push({ name: g, type: t === 'json' ? 'string' : outputTypeOf(t) });
  }
  for (const a of q.aggregate) {
    const t = a.field ? typeOfName(a.field) : 'integer';
    const type: OutputType =
      a.fn === 'count' || a.fn === 'count_distinct'
        ? 'integer'
        : (a.fn === 'min' || a.fn === 'max') && t === 'timestamp'
          ? 'timestamp'
          : 'number';
    cols.push({ name: aggregateName(a), type });
  }
  return cols;
}
