/**
 * Validates a report query document (the one structure used by query, export, saved reports, schedules
 * and translate) against the field catalogue and returns it normalized, with defaults filled in.
 * Problems name the GraphQL path of the offending value (`query.filters[1].op` is reported as
 * loc ['query', 'filters', '1', 'op']; REST shows its request's path). Pure: no I/O.
 */
import {
  AGGREGATE_FNS,
  BUCKETS,
  CATALOGUE,
  ENTITIES,
  OPS,
  OPS_BY_TYPE,
  resolveField,
  typeOf,
  type AggregateFn,
  type Bucket,
  type Entity,
  type FieldRef,
  type FieldType,
  type Op,
} from './catalogue.js';
import type { FieldProblem } from '../errors.js';
import {
  aggregateName,
  REPORT_LIMITS,
  type ReportAggregate,
  type ReportFilter,
  type ReportOrder,
  type ReportQuery,
} from './query-shape.js';

export { REPORT_LIMITS, aggregateName, outputColumns, outputTypeOf } from './query-shape.js';
export type {
  OutputColumn,
  OutputType,
  ReportAggregate,
  ReportFilter,
  ReportOrder,
  ReportQuery,
} from './query-shape.js';

const KEYS = ['entity', 'since_hours', 'filters', 'group_by', 'aggregate', 'bucket', 'order_by', 'limit', 'columns'];
const NUMERIC: FieldType[] = ['integer', 'json'];

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** `YYYY-MM-DD`, optionally `THH:MM[:SS[.fraction]]` and `Z` or `±HH[:]MM`. */
const ISO_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * True for an ISO-8601 date or date-time Postgres reads as the same instant: a real calendar day
 * (no 30 February), hours to 23, minutes and seconds to 59, years 0001 to 9999. `Date.parse` alone
 * accepts far more (`May 1`, `2026-02-30`, `+275760-09-13`) that Postgres refuses with a 500.
 */
export function isIsoTimestamp(v: unknown): v is string {
  if (typeof v !== 'string' || v.length > 40) return false;
  const m = ISO_TIMESTAMP.exec(v);
  if (!m) return false;
  const [year, month, day, hour = 0, minute = 0, second = 0] = m
    .slice(1, 7)
    .map((x) => (x === undefined ? undefined : Number(x))) as number[];
  if (year < 1 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return false;
  return day <= new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeap(year) ? 1 : 0);
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Checks one scalar against a field type; returns a message or null. */
function scalarProblem(type: FieldType, values: readonly string[] | undefined, op: Op, v: unknown): string | null {
  switch (type) {
    case 'string':
    case 'text':
    case 'label':
      return typeof v === 'string' && v.length <= REPORT_LIMITS.maxStringValue
        ? null
        : `must be a string of at most ${REPORT_LIMITS.maxStringValue} characters`;
    case 'enum':
      return typeof v === 'string' && values!.includes(v) ? null : `must be one of ${values!.join(', ')}`;
    case 'integer': {
      // Integer columns are bigint: a value past ±2^53 is neither exact in JSON nor, past ±2^63, a bigint.
      const exact = op === 'eq' || op === 'ne' || op === 'in' || op === 'not_in';
      const ok =
        typeof v === 'number' &&
        Number.isFinite(v) &&
        Math.abs(v) <= Number.MAX_SAFE_INTEGER &&
        (!exact || Number.isInteger(v));
      return ok
        ? null
        : `must be ${exact ? 'an integer' : 'a number'} from ${-Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}`;
    }
    case 'timestamp':
      return isIsoTimestamp(v)
        ? null
        : 'must be an ISO-8601 timestamp such as 2026-05-01 or 2026-05-01T12:00:00Z (years 1 to 9999)';
    case 'boolean':
      return typeof v === 'boolean' ? null : 'must be true or false';
    case 'json':
      if (op === 'contains' || op === 'prefix')
        return typeof v === 'string' && v.length <= REPORT_LIMITS.maxStringValue ? null : 'must be a string';
      if (op === 'gt' || op === 'gte' || op === 'lt' || op === 'lte')
        return (typeof v === 'number' && Number.isFinite(v)) ||
          (typeof v === 'string' && v.length <= REPORT_LIMITS.maxStringValue)
          ? null
          : 'must be a number or a string';
      return v === null ||
        typeof v === 'boolean' ||
        (typeof v === 'number' && Number.isFinite(v)) ||
        (typeof v === 'string' && v.length <= REPORT_LIMITS.maxStringValue)
        ? null
        : 'must be a string, number, boolean or null';
  }
}

export interface ValidateOptions {
  /** Where the document sits in the request, e.g. ['query'] or ['input', 'query']. */
  base?: string[];
  /** Exports allow far larger limits (and default to the maximum). */
  mode?: 'query' | 'export';
}

/** Validates `input`; returns the normalized query or every problem found. */
export function validateReportQuery(
  input: unknown,
  opts: ValidateOptions = {},
): { query: ReportQuery; problems: [] } | { query: null; problems: FieldProblem[] } {
  const base = opts.base ?? ['query'];
  const problems: FieldProblem[] = [];
  const at = (...p: Array<string | number>) => [...base, ...p.map(String)];
  const bad = (loc: string[], msg: string) => problems.push({ loc, msg });
  if (!isObject(input)) {
    bad(base, 'must be an object with at least `entity`');
    return { query: null, problems };
  }
  for (const k of Object.keys(input))
    if (!KEYS.includes(k)) bad(at(k), `unknown key; the query keys are ${KEYS.join(', ')}`);
  if (!ENTITIES.includes(input.entity as Entity)) {
    bad(at('entity'), `must be one of ${ENTITIES.join(', ')}`);
    return { query: null, problems };
  }
  const entity = input.entity as Entity;
  const def = CATALOGUE[entity];
  const ref = (name: unknown, loc: string[]): FieldRef | null => {
    const r = resolveField(entity, name);
    if ('error' in r) {
      bad(loc, r.error);
      return null;
    }
    return r;
  };
  const list = (key: string, max: number): unknown[] => {
    const v = input[key];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) {
      bad(at(key), 'must be a list');
      return [];
    }
    if (v.length > max) bad(at(key), `must list at most ${max} items`);
    return v.slice(0, max);
  };

  // since_hours
  let sinceHours: number | null = REPORT_LIMITS.defaultSinceHours;
  if (input.since_hours === null) {
    if (def.windowOptional) sinceHours = null;
    else bad(at('since_hours'), `${entity} need a time window: give 1 to ${REPORT_LIMITS.maxSinceHours}`);
  } else if (input.since_hours !== undefined) {
    const h = input.since_hours;
    if (typeof h !== 'number' || !Number.isInteger(h) || h < 1 || h > REPORT_LIMITS.maxSinceHours)
      bad(at('since_hours'), `must be an integer from 1 to ${REPORT_LIMITS.maxSinceHours}`);
    else sinceHours = h;
  }

  // filters
  const filters: ReportFilter[] = [];
  list('filters', REPORT_LIMITS.maxFilters).forEach((raw, i) => {
    if (!isObject(raw)) return bad(at('filters', i), 'must be an object {field, op, value}');
    for (const k of Object.keys(raw))
      if (!['field', 'op', 'value'].includes(k))
        bad(at('filters', i, k), 'unknown key; a filter is {field, op, value}');
    const r = ref(raw.field, at('filters', i, 'field'));
    if (!r) return;
    const type = typeOf(r);
    const op = raw.op as Op;
    if (!OPS.includes(op)) return bad(at('filters', i, 'op'), `must be one of ${OPS.join(', ')}`);
    if (!OPS_BY_TYPE[type].includes(op))
      return bad(at('filters', i, 'op'), `${r.name} (${type}) allows ${OPS_BY_TYPE[type].join(', ')}`);
    const values = r.kind === 'field' ? r.def.values : undefined;
    if (op === 'exists') {
      if (raw.value !== undefined && typeof raw.value !== 'boolean')
        return bad(at('filters', i, 'value'), 'must be true or false (default true)');
      return filters.push({ field: r.name, op, value: raw.value ?? true });
    }
    if (op === 'in' || op === 'not_in') {
      if (!Array.isArray(raw.value) || raw.value.length < 1 || raw.value.length > REPORT_LIMITS.maxInValues)
        return bad(at('filters', i, 'value'), `must be a list of 1 to ${REPORT_LIMITS.maxInValues} values`);
      let ok = true;
      raw.value.forEach((v, j) => {
        const msg = scalarProblem(type, values, op, v);
        if (msg) {
          ok = false;
          bad(at('filters', i, 'value', j), msg);
        }
      });
      if (ok) filters.push({ field: r.name, op, value: raw.value });
      return;
    }
    if (raw.value === undefined) return bad(at('filters', i, 'value'), 'is required for this op');
    const msg = scalarProblem(type, values, op, raw.value);
    if (msg) return bad(at('filters', i, 'value'), msg);
    filters.push({ field: r.name, op, value: raw.value });
  });

  // group_by
  const groupBy: string[] = [];
  list('group_by', REPORT_LIMITS.maxGroupBy).forEach((name, i) => {
    const r = ref(name, at('group_by', i));
    if (!r) return;
    if (r.kind === 'field' && !r.def.groupable)
      return bad(at('group_by', i), `${r.name} is free text and cannot be grouped`);
    if (groupBy.includes(r.name)) return bad(at('group_by', i), 'is listed twice');
    groupBy.push(r.name);
  });

  // bucket
  let bucket: Bucket | null = null;
  if (input.bucket !== undefined && input.bucket !== null) {
    if (!(typeof input.bucket === 'string' && input.bucket in BUCKETS))
      bad(at('bucket'), `must be one of ${Object.keys(BUCKETS).join(', ')}`);
    else bucket = input.bucket as Bucket;
  }

  // aggregate: a function name, or a list of {fn, field}
  const aggregate: ReportAggregate[] = [];
  const rawAgg =
    typeof input.aggregate === 'string'
      ? [{ fn: input.aggregate }]
      : isObject(input.aggregate)
        ? [input.aggregate]
        : list('aggregate', REPORT_LIMITS.maxAggregates);
  rawAgg.forEach((raw, i) => {
    const loc = (...p: string[]) => (Array.isArray(input.aggregate) ? at('aggregate', i, ...p) : at('aggregate', ...p));
    if (!isObject(raw)) return bad(loc(), 'must be {fn, field}');
    const fn = raw.fn as AggregateFn;
    if (!AGGREGATE_FNS.includes(fn)) return bad(loc('fn'), `must be one of ${AGGREGATE_FNS.join(', ')}`);
    if (fn === 'count' && (raw.field === undefined || raw.field === null)) return aggregate.push({ fn });
    if (raw.field === undefined || raw.field === null) return bad(loc('field'), `is required for ${fn}`);
    const r = ref(raw.field, loc('field'));
    if (!r) return;
    const t = typeOf(r);
    if (fn === 'count')
      return bad(loc('field'), 'count counts rows; use count_distinct to count the values of a field');
    if (fn === 'count_distinct' && r.kind === 'field' && !r.def.groupable)
      return bad(loc('field'), `${r.name} is free text`);
    if (['sum', 'avg', 'p50', 'p95'].includes(fn) && !NUMERIC.includes(t))
      return bad(loc('field'), `${fn} needs a numeric field (integer or a payload path)`);
    if (['min', 'max'].includes(fn) && ![...NUMERIC, 'timestamp'].includes(t))
      return bad(loc('field'), `${fn} needs a numeric or timestamp field`);
    const a = { fn, field: r.name };
    if (aggregate.some((x) => aggregateName(x) === aggregateName(a))) return bad(loc(), 'is listed twice');
    aggregate.push(a);
  });
  const aggregated = aggregate.length > 0 || groupBy.length > 0 || bucket !== null;
  if (aggregated && aggregate.length === 0) aggregate.push({ fn: 'count' });

  // columns (row queries only)
  const columns: string[] = [];
  if (Array.isArray(input.columns) && input.columns.length > 0 && aggregated)
    bad(
      at('columns'),
      'cannot be combined with group_by, bucket or aggregate (the output columns are the groups and aggregates)',
    );
  else
    list('columns', REPORT_LIMITS.maxColumns).forEach((name, i) => {
      const r = ref(name, at('columns', i));
      if (r && !columns.includes(r.name)) columns.push(r.name);
    });
  if (!aggregated && columns.length === 0) columns.push(...def.defaultColumns);

  const outputNames = aggregated
    ? [...(bucket ? ['bucket'] : []), ...groupBy, ...aggregate.map(aggregateName)]
    : columns;

  // order_by: output columns only
  const orderBy: ReportOrder[] = [];
  list('order_by', REPORT_LIMITS.maxOrderBy).forEach((raw, i) => {
    const o = typeof raw === 'string' ? { field: raw } : raw;
    if (!isObject(o)) return bad(at('order_by', i), 'must be {field, dir}');
    if (typeof o.field !== 'string' || !outputNames.includes(o.field))
      return bad(at('order_by', i, 'field'), `must be one of the output columns: ${outputNames.join(', ')}`);
    const dir = o.dir ?? 'desc';
    if (dir !== 'asc' && dir !== 'desc') return bad(at('order_by', i, 'dir'), 'must be asc or desc');
    orderBy.push({ field: o.field, dir });
  });

  // limit
  const max = opts.mode === 'export' ? REPORT_LIMITS.maxExportRows : REPORT_LIMITS.maxLimit;
  let limit: number = opts.mode === 'export' ? REPORT_LIMITS.maxExportRows : REPORT_LIMITS.defaultLimit;
  if (input.limit !== undefined && input.limit !== null) {
    if (typeof input.limit !== 'number' || !Number.isInteger(input.limit) || input.limit < 1 || input.limit > max)
      bad(
        at('limit'),
        `must be an integer from 1 to ${max}${opts.mode === 'export' ? ' for an export' : ' (exports allow up to ' + REPORT_LIMITS.maxExportRows + ')'}`,
      );
    else limit = input.limit;
  }

  if (problems.length) return { query: null, problems };
  return {
    query: {
      entity,
      since_hours: sinceHours,
      filters,
      group_by: groupBy,
      aggregate,
      bucket,
      order_by: orderBy,
      limit,
      columns,
    },
    problems: [],
  };
}
