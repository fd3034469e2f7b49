/**
 * REST 422 field paths: services name the fields of the GraphQL operation a route runs
 * (`input.deviceId`, `olderThan`, `filter.sinceHours`); REST callers must see the field of THEIR
 * request (`body.device_id`, `query.older_than`, `path.deviceId`). The reverse map is derived from
 * the route's own `variables` mapping, so no route writes it twice: on an error with field problems
 * the mapping is run once more over a recording view of the request, which notes which request field
 * each variable was read from.
 */
import type { OperationRoute, RestRequest } from './route-types.js';
import { snakeKey } from './shape.js';

type Where = 'path' | 'query' | 'body';

interface Read {
  where: Where;
  path: string[];
  value: unknown;
  /** What the mapping got to see (the recording view of an object). */
  view: unknown;
}

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null;

/** A view of `value` that records every own or missing string key read, deeply. */
function recording(value: unknown, where: Where, path: string[], reads: Read[]): unknown {
  if (!isObject(value)) return value;
  return new Proxy(value, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver);
      if (typeof key !== 'string' || (key in target && !Object.hasOwn(target, key))) return v;
      const view = recording(v, where, [...path, key], reads);
      reads.push({ where, path: [...path, key], value: v, view });
      return view;
    },
  });
}

/** Every leaf path of the variables (objects are leaves too, so a whole input can be named). */
function paths(value: unknown, prefix: string[] = [], out: Array<{ path: string[]; value: unknown }> = []) {
  if (prefix.length) out.push({ path: prefix, value });
  if (isObject(value) && !(value instanceof Date) && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) paths(v, [...prefix, k], out);
  }
  return out;
}

const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const endsWith = (a: string[], b: string[]) => b.length <= a.length && same(a.slice(a.length - b.length), b);

/** Translates field locations of `route`'s GraphQL operation into locations in `req`. */
export function restLocTranslator(route: OperationRoute, req: RestRequest, method: string): (loc: string[]) => string[] {
  let traced: { reads: Read[]; vars: ReturnType<typeof paths> } | undefined;
  const trace = () => {
    if (traced) return traced;
    const reads: Read[] = [];
    let vars: unknown = {};
    try {
      vars = route.variables?.({
        params: recording(req.params, 'path', [], reads) as Record<string, string>,
        query: recording(req.query, 'query', [], reads) as Record<string, unknown>,
        body: recording(req.body, 'body', [], reads),
        headers: req.headers,
      }) ?? {};
    } catch {
      /* the mapping ran fine on the real request; a partial trace is still useful */
    }
    return (traced = { reads, vars: paths(vars) });
  };
  const fallbackWhere: Where = method === 'get' || method === 'delete' ? 'query' : 'body';

  return (loc) => {
    if (['path', 'query', 'body'].includes(loc[0]!) && loc.length === 1) return loc; // the whole body/query
    const { reads, vars } = trace();
    const stripped = ['input', 'body', 'query', 'filter'].includes(loc[0]!) && loc.length > 1 ? loc.slice(1) : loc;
    // The variable the location starts with: the longest prefix of the location that is a variable path.
    for (const base of loc === stripped ? [loc] : [loc, stripped]) {
      for (let n = base.length; n > 0; n--) {
        const candidate = base.slice(0, n);
        const v = vars.find((x) => same(x.path, candidate)) ?? vars.find((x) => endsWith(x.path, candidate));
        if (!v) continue;
        const name = v.path[v.path.length - 1]!;
        // A request value passed on as is (labels, payloads, lists) keeps its inner path exactly as sent.
        const passedOn = isObject(v.value) ? reads.find((r) => r.view === v.value || r.value === v.value) : undefined;
        if (passedOn) return [passedOn.where, ...passedOn.path, ...base.slice(n)];
        const origin =
          reads.find((r) => r.path[r.path.length - 1] === snakeKey(name) || r.path[r.path.length - 1] === name) ??
          (v.value != null && !isObject(v.value) ? reads.find((r) => r.value != null && !isObject(r.value) && String(r.value) === String(v.value)) : undefined);
        if (origin) return [origin.where, ...origin.path, ...base.slice(n).map(snakeKey)];
      }
    }
    return [fallbackWhere, ...stripped.map(snakeKey)];
  };
}
