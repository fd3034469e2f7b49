/**
 * Parameter values for a saved report run (REST `parameters`, a schedule's `parameters`): they override
 * the stored query's filters, `since_hours` or `limit`, and the result is validated like any query.
 */
import { ValidationFailed, invalid } from '../errors.js';
import { validateReportQuery, type ReportQuery } from './validate.js';

/** Parameter values for a run: field name → filter value, or `since_hours` / `limit`. */
export type ReportParameters = Record<string, unknown>;

/**
 * The stored query with parameter values applied: `since_hours` and `limit` replace those keys; any
 * other name is a field whose filters take the value (a field without a filter gets an `eq`, or `in`
 * for a list). Problems are reported at the parameter's own path.
 */
export function applyParameters(
  stored: unknown,
  params: ReportParameters | null | undefined,
  base: string[],
): ReportQuery {
  const q = { ...(stored as Record<string, unknown>) };
  const filters = [...((q.filters as Array<Record<string, unknown>>) ?? [])].map((f) => ({ ...f }));
  const origin = new Map<number, string>();
  if (params != null && (typeof params !== 'object' || Array.isArray(params)))
    throw invalid(base, 'must be an object of parameter values');
  for (const [name, value] of Object.entries(params ?? {})) {
    if (name === 'since_hours' || name === 'limit') {
      q[name] = value;
      continue;
    }
    const matching = filters.map((f, i) => (f.field === name ? i : -1)).filter((i) => i >= 0);
    if (matching.length) for (const i of matching) ((filters[i].value = value), origin.set(i, name));
    else {
      filters.push({ field: name, op: Array.isArray(value) ? 'in' : 'eq', value });
      origin.set(filters.length - 1, name);
    }
  }
  q.filters = filters;
  const v = validateReportQuery(q, { base: ['query'] });
  if (v.query) return v.query;
  throw new ValidationFailed(
    v.problems.map((p) => {
      const [, key, idx] = p.loc;
      if (key === 'filters' && origin.has(Number(idx))) return { loc: [...base, origin.get(Number(idx))!], msg: p.msg };
      if ((key === 'since_hours' || key === 'limit') && params && key in params)
        return { loc: [...base, key], msg: p.msg };
      return { loc: ['saved_report', ...p.loc.slice(1)], msg: `the saved query is no longer valid: ${p.msg}` };
    }),
  );
}
