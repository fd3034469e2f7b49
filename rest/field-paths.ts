/**
 * REST 422 field locations, derived in this one place. Services name the fields of the GraphQL
 * operation a route runs (`['input', 'deviceId']`, `['olderThan']`, `['query', 'filters', '1', 'op']`);
 * REST callers must see the field of THEIR request (`body.device_id`, `query.older_than`,
 * `body.filters.1.op`). The reverse map is derived from the route's own `variables` mapping, so no
 * route writes it: on an error with field problems the mapping is run once more over a recording view
 * of the request, which notes which request field each variable was read from; the rest of a location
 * inside a variable is mapped by the variable's GraphQL type (an input field `deviceId` is the body key
 * `device_id`; keys inside a JSON value, such as labels, stay exactly as sent).
 */
import {
  getNamedType,
  isInputObjectType,
  isListType,
  isNonNullType,
  typeFromAST,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { HandlerRoute, OperationRoute, RestRequest } from './route-types.js';
import { snakeKey } from './shape.js';
import { camelKey } from '../schema/values.js';
import { operationVariableNames } from './translate.js';

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
  const view = new Proxy(value, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver);
      if (typeof key !== 'string' || (key in target && !Object.hasOwn(target, key))) return v;
      const inner = recording(v, where, [...path, key], reads);
      reads.push({ where, path: [...path, key], value: v, view: inner });
      return inner;
    },
  });
  if (path.length === 0) reads.push({ where, path, value, view }); // the whole body/query passed on
  return view;
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

/** The GraphQL input type at `path` of the operation's variables (undefined inside JSON values). */
function typeAt(types: Map<string, GraphQLInputType>, path: string[]): GraphQLInputType | undefined {
  let type: GraphQLInputType | undefined = types.get(path[0]!);
  for (const seg of path.slice(1)) {
    if (!type) return undefined;
    while (isNonNullType(type)) type = type.ofType;
    if (isListType(type)) type = type.ofType as GraphQLInputType;
    else if (isInputObjectType(type)) type = (type.getFields()[seg] ?? type.getFields()[camelKey(seg)])?.type;
    else return undefined;
  }
  return type;
}

/** Segments below a variable path in REST terms: input fields snake_case, list indices and JSON keys as they are. */
function restSegments(type: GraphQLInputType | undefined, segs: string[]): string[] {
  const out: string[] = [];
  let t = type;
  for (const seg of segs) {
    while (t && isNonNullType(t)) t = t.ofType;
    if (t && isListType(t)) {
      out.push(seg);
      t = t.ofType as GraphQLInputType;
    } else if (t && isInputObjectType(t)) {
      const field = t.getFields()[seg] ?? t.getFields()[camelKey(seg)];
      out.push(field ? snakeKey(field.name) : snakeKey(seg));
      t = field?.type;
    } else if (t && getNamedType(t)) {
      out.push(seg); // inside a JSON value: keys exactly as sent
    } else {
      out.push(snakeKey(seg)); // no type known (a service's own name): the contract's case
    }
  }
  return out;
}

/** The operation's variable types, and its root field's argument names → the variables passed to them. */
function operationVariables(schema: GraphQLSchema, document: DocumentNode) {
  const op = document.definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  const types = new Map<string, GraphQLInputType>();
  for (const def of op?.variableDefinitions ?? []) {
    const t = typeFromAST(schema, def.type as never) as GraphQLInputType | undefined;
    if (t) types.set(def.variable.name.value, t);
  }
  const byArgument = new Map<string, string>();
  const root = op?.selectionSet.selections.find((s) => s.kind === 'Field');
  for (const arg of root?.kind === 'Field' ? (root.arguments ?? []) : []) {
    if (arg.value.kind === 'Variable') byArgument.set(arg.name.value, arg.value.name.value);
  }
  return { types, byArgument };
}

/** Translates field locations of `route`'s GraphQL operation into locations in `req`. */
export function restLocTranslator(
  schema: GraphQLSchema,
  document: DocumentNode,
  route: OperationRoute,
  req: RestRequest,
): (loc: string[]) => string[] {
  return translator(route, req, { document, ...operationVariables(schema, document) });
}

/**
 * Field locations of a handler route's services in `req`. A route with `variables` (what its handler
 * passes to the service, under the service's names) is mapped like an operation route, a document passed
 * on keeping its keys as sent; without them the service was given the request body, so its locations
 * name fields of the body (`['alerts', '0', 'status']` → `body.alerts.0.status`).
 */
export function handlerLocTranslator(route: HandlerRoute, req: RestRequest): (loc: string[]) => string[] {
  if (!route.variables) return (loc) => ['body', ...loc];
  return translator(route, req);
}

interface Operation {
  document: DocumentNode;
  types: Map<string, GraphQLInputType>;
  byArgument: Map<string, string>;
}

function translator(
  route: OperationRoute | HandlerRoute,
  req: RestRequest,
  op?: Operation,
): (loc: string[]) => string[] {
  let traced: { reads: Read[]; vars: ReturnType<typeof paths> } | undefined;
  const trace = () => {
    if (traced) return traced;
    const reads: Read[] = [];
    let vars: Record<string, unknown> = {};
    try {
      vars =
        route.variables?.({
          params: recording(req.params, 'path', [], reads) as Record<string, string>,
          query: recording(req.query, 'query', [], reads) as Record<string, unknown>,
          body: recording(req.body, 'body', [], reads),
          headers: req.headers,
          now: req.now,
        }) ?? {};
    } catch {
      /* the mapping ran fine on the real request; a partial trace is still useful */
    }
    return (traced = { reads, vars: paths(op ? operationVariableNames(op.document, vars) : vars) });
  };
  const types = op?.types ?? new Map<string, GraphQLInputType>();
  const byArgument = op?.byArgument ?? new Map<string, string>();
  const fallbackWhere: Where = route.method === 'get' || route.method === 'delete' ? 'query' : 'body';

  return (given) => {
    // Services name the root field's arguments (`expiresInHours`); the route's operation may pass a
    // differently named variable (`$hours`).
    const loc = byArgument.has(given[0]!) ? [byArgument.get(given[0]!)!, ...given.slice(1)] : given;
    const { reads, vars } = trace();
    // The whole body/query, unless that is the name of a variable (a report's `query` document).
    if (['path', 'query', 'body'].includes(loc[0]!) && loc.length === 1 && !vars.some((x) => same(x.path, loc)))
      return loc;
    const stripped = ['input', 'body', 'query', 'filter'].includes(loc[0]!) && loc.length > 1 ? loc.slice(1) : loc;
    // The variable the location starts with: the longest prefix of the location that is a variable path.
    for (const base of loc === stripped ? [loc] : [loc, stripped]) {
      for (let n = base.length; n > 0; n--) {
        const candidate = base.slice(0, n);
        const v = vars.find((x) => same(x.path, candidate)) ?? vars.find((x) => endsWith(x.path, candidate));
        if (!v) continue;
        const name = v.path[v.path.length - 1]!;
        // A request value passed on as is (a whole body, labels, payloads, lists): its inner path as sent.
        const passedOn = isObject(v.value) ? reads.find((r) => r.view === v.value || r.value === v.value) : undefined;
        // Below a variable: by its GraphQL type; a handler's document passed on has no type, its keys stay as sent.
        const below = passedOn && !op ? base.slice(n) : restSegments(typeAt(types, v.path), base.slice(n));
        if (passedOn) return [passedOn.where, ...passedOn.path, ...below];
        const origin =
          reads.find(
            (r) =>
              r.path.length && (r.path[r.path.length - 1] === snakeKey(name) || r.path[r.path.length - 1] === name),
          ) ??
          (v.value != null && !isObject(v.value)
            ? reads.find((r) => r.value != null && !isObject(r.value) && String(r.value) === String(v.value))
            : undefined);
        if (origin) return [origin.where, ...origin.path, ...below];
      }
    }
    return [fallbackWhere, ...stripped.map(snakeKey)];
  };
}
