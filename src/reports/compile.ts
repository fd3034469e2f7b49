/**
 * Compiles a validated report query to one parameterised SELECT. Identifiers and SQL fragments come
 * only from the catalogue; every value the caller gave (filter values, label keys, payload paths, the
 * window, the limit) is a `$n` parameter. Output columns are aliased positionally (`c0`, `c1`, …) and
 * named in JavaScript, so not even a label key becomes an identifier.
 *
 * The tenant filter is written by `scopedFrom`, the only producer of the FROM clause, as the first
 * predicate with `$1` bound to the tenant: no query compiles without it.
 */
import { BUCKETS, CATALOGUE, resolveField, typeOf, type EntityDef, type FieldRef } from './catalogue.js';
import { aggregateName, outputColumns, type OutputColumn, type ReportFilter, type ReportQuery } from './validate.js';

export interface CompiledQuery {
  sql: string;
  params: unknown[];
  columns: OutputColumn[];
}

/** How the n-th value is referred to in the SQL: a bind parameter unless the caller says otherwise. */
export type Placeholder = (n: number) => string;
const bindParameter: Placeholder = (n) => `$${n}`;

class Params {
  readonly values: unknown[] = [];
  constructor(private readonly placeholder: Placeholder = bindParameter) {}
  add(v: unknown): string {
    this.values.push(v);
    return this.placeholder(this.values.length);
  }
}

/** FROM + the tenant predicate (always the first value, `$1`). */
function scopedFrom(def: EntityDef, params: Params, tenantId: string): string {
  if (params.values.length !== 0) throw new Error('the tenant parameter must be $1');
  if (typeof tenantId !== 'string' || !tenantId) throw new Error('a report query needs a tenant');
  return `FROM ${def.table} t WHERE t."tenantId" = ${params.add(tenantId)}`;
}

function ref(q: ReportQuery, name: string): FieldRef {
  const r = resolveField(q.entity, name);
  if ('error' in r) throw new Error(`unvalidated field ${name}`);
  return r;
}

/** The value of a field as SQL: text for labels and payload (`json` gives the jsonb value). */
function expr(r: FieldRef, p: Params, as: 'value' | 'text' | 'json' | 'number' = 'value'): string {
  if (r.kind === 'field') return r.def.type === 'enum' ? `${r.def.sql}::text` : r.def.sql;
  if (r.kind === 'label') return `(t."labels" ->> ${p.add(r.key)})`;
  const path = p.add(r.path);
  if (as === 'json' || as === 'value') return `(t."payload" #> ${path}::text[])`;
  if (as === 'number')
    return `(CASE WHEN jsonb_typeof(t."payload" #> ${path}::text[]) = 'number' THEN (t."payload" #> ${path}::text[])::numeric END)`;
  return `(t."payload" #>> ${path}::text[])`;
}

const CMP = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

function filterSql(q: ReportQuery, f: ReportFilter, p: Params): string {
  const r = ref(q, f.field);
  const type = typeOf(r);
  if (f.op === 'exists') return `${expr(r, p, 'json')} IS ${f.value === false ? '' : 'NOT '}NULL`;
  if (type === 'json') {
    switch (f.op) {
      case 'eq':
        return `${expr(r, p, 'json')} = ${p.add(JSON.stringify(f.value))}::jsonb`;
      case 'ne':
        return `${expr(r, p, 'json')} IS DISTINCT FROM ${p.add(JSON.stringify(f.value))}::jsonb`;
      case 'in':
        return `${expr(r, p, 'json')} IN (SELECT jsonb_array_elements(${p.add(JSON.stringify(f.value))}::jsonb))`;
      case 'not_in':
        return `${expr(r, p, 'json')} IS NOT NULL AND ${expr(r, p, 'json')} NOT IN (SELECT jsonb_array_elements(${p.add(JSON.stringify(f.value))}::jsonb))`;
      case 'contains':
        return `strpos(${expr(r, p, 'text')}, ${p.add(f.value)}) > 0`;
      case 'prefix':
        return `starts_with(${expr(r, p, 'text')}, ${p.add(f.value)})`;
      default:
        return typeof f.value === 'number'
          ? `${expr(r, p, 'number')} ${CMP[f.op]} ${p.add(f.value)}::numeric`
          : `${expr(r, p, 'text')} ${CMP[f.op]} ${p.add(f.value)}`;
    }
  }
  const e = expr(r, p);
  const cast =
    type === 'integer'
      ? '::int8'
      : type === 'boolean'
        ? '::boolean'
        : type === 'timestamp'
          ? '::timestamptz'
          : '::text';
  const val = (v: unknown) =>
    type === 'timestamp'
      ? `(${p.add(v)}::timestamptz AT TIME ZONE 'UTC')`
      : `${p.add(v)}${type === 'integer' && f.op !== 'eq' && f.op !== 'ne' ? '::numeric' : cast}`;
  switch (f.op) {
    case 'eq':
      return `${e} = ${val(f.value)}`;
    case 'ne':
      return `${e} IS DISTINCT FROM ${val(f.value)}`;
    case 'in':
      return `${e} = ANY(${p.add(f.value)}${cast}[])`;
    case 'not_in':
      return `(${e} IS NULL OR NOT (${e} = ANY(${p.add(f.value)}${cast}[])))`;
    case 'contains':
      return `strpos(${e}, ${p.add(f.value)}) > 0`;
    case 'prefix':
      return `starts_with(${e}, ${p.add(f.value)})`;
    default:
      return `${e} ${CMP[f.op]} ${val(f.value)}`;
  }
}

function aggregateSql(q: ReportQuery, a: ReportQuery['aggregate'][number], p: Params): string {
  if (a.fn === 'count') return 'count(*)::int8';
  const r = ref(q, a.field!);
  const t = typeOf(r);
  if (a.fn === 'count_distinct') return `count(DISTINCT ${expr(r, p, 'text')})::int8`;
  const num = t === 'json' ? expr(r, p, 'number') : expr(r, p);
  switch (a.fn) {
    case 'sum':
      return `sum(${num})::float8`;
    case 'avg':
      return `avg(${num})::float8`;
    case 'min':
    case 'max':
      return t === 'timestamp' ? `${a.fn}(${num})` : `${a.fn}(${num})::float8`;
    case 'p50':
      return `percentile_cont(0.5) WITHIN GROUP (ORDER BY ${num})`;
    case 'p95':
      return `percentile_cont(0.95) WITHIN GROUP (ORDER BY ${num})`;
  }
}

/**
 * The SQL for a validated query and tenant. `extraRow` asks for limit + 1 rows so the caller can tell
 * whether the answer was truncated. `placeholder` names the values some other way than `$n` (the CSV
 * export's COPY, which takes no bind parameters, reads them from transaction-local settings); every
 * value still travels apart from the SQL text.
 */
export function compileReportQuery(
  q: ReportQuery,
  tenantId: string,
  opts: { now: Date; extraRow?: boolean; placeholder?: Placeholder },
): CompiledQuery {
  const def = CATALOGUE[q.entity];
  const p = new Params(opts.placeholder);
  const from = scopedFrom(def, p, tenantId);
  const where: string[] = [];
  const timeRef = ref(q, def.timeField);
  // The window ends at the service's clock (rt.clock), not the database's, so it agrees with the times
  // the service stamped and tests can run it at any time of day.
  if (q.since_hours !== null) {
    where.push(
      `${expr(timeRef, p)} >= (${p.add(opts.now.toISOString())}::timestamptz AT TIME ZONE 'UTC') - make_interval(hours => ${p.add(q.since_hours)}::int)`,
    );
  }
  for (const f of q.filters) where.push(`(${filterSql(q, f, p)})`);

  const columns = outputColumns(q);
  const select: string[] = [];
  const groups: string[] = [];
  if (q.aggregate.length === 0) {
    for (const name of q.columns) select.push(expr(ref(q, name), p, 'json'));
  } else {
    if (q.bucket) {
      const e = `date_bin('${BUCKETS[q.bucket]}'::interval, ${expr(timeRef, p)}, TIMESTAMP '2000-01-03 00:00:00')`;
      select.push(e);
      groups.push(String(select.length));
    }
    for (const g of q.group_by) {
      select.push(expr(ref(q, g), p, 'text'));
      groups.push(String(select.length));
    }
    for (const a of q.aggregate) select.push(aggregateSql(q, a, p));
  }

  const names = columns.map((c) => c.name);
  let order = q.order_by.map((o) => `${names.indexOf(o.field) + 1} ${o.dir === 'asc' ? 'ASC' : 'DESC'} NULLS LAST`);
  if (order.length === 0) {
    if (q.aggregate.length === 0) order = [`${expr(timeRef, p)} DESC`];
    else if (q.bucket) order = ['1 ASC'];
    else order = [`${names.indexOf(aggregateName(q.aggregate[0])) + 1} DESC`];
  }
  // A stable order for rows with equal keys: the id for row queries, the group keys for aggregates.
  if (q.aggregate.length === 0) order.push('t."id" DESC');
  else order.push(...groups.map((g) => `${g} ASC`));

  // Typed, so that a placeholder that is not a bind parameter (text) serves as well.
  const limit = `${p.add(q.limit + (opts.extraRow ? 1 : 0))}::int8`;
  const sql =
    `SELECT ${select.map((s, i) => `${s} AS c${i}`).join(', ')} ${from}` +
    (where.length ? ` AND ${where.join(' AND ')}` : '') +
    (groups.length ? ` GROUP BY ${groups.join(', ')}` : '') +
    ` ORDER BY ${order.join(', ')} LIMIT ${limit}`;
  return { sql, params: p.values, columns };
}
