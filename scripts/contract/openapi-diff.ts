/**
 * Breaking changes between two OpenAPI 3.1 documents, structurally, after both are dereferenced:
 * a removed path or operation, a removed 2xx response or response property, a new required request
 * property or parameter, a removed parameter, a narrowed enum in a request, and a changed type (a
 * request type that accepts less, a response type that may return more).
 *
 * Each change names where it is (`GET /alerts 200 items[].status`) and whether the removed or changed
 * thing was deprecated in the old document (`deprecated: true` on the operation, the parameter or the
 * property), with the operation's `x-sunset` date if any: the guard (guard.ts) decides what may pass.
 */
type Doc = Record<string, any>;
type Schema = Record<string, any>;

export interface OpenApiChange {
  /** `GET /alerts`: the operation the change is in. */
  operation: string;
  /** Where in it: `response 200 body.items[].status`, `parameter query.limit`, `request body.name`. */
  location: string;
  message: string;
  /** The old document had deprecated the operation, parameter or property being removed or changed. */
  deprecated: boolean;
  /** The old operation's `x-sunset` (RFC 8594) date, when it had one. */
  sunset?: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'] as const;
const MAX_DEPTH = 12;

const typesOf = (s: Schema): Set<string> => {
  if (Array.isArray(s.type)) return new Set(s.type as string[]);
  if (typeof s.type === 'string') return new Set([s.type, ...(s.nullable ? ['null'] : [])]);
  if (s.const !== undefined) return new Set([s.const === null ? 'null' : typeof s.const]);
  return new Set();
};

/** A schema's properties and required names, through allOf (merged) and oneOf/anyOf (united). */
function flatten(s: Schema, seen = new Set<Schema>()): { props: Record<string, Schema>; required: Set<string> } {
  const props: Record<string, Schema> = {};
  const required = new Set<string>();
  if (!s || typeof s !== 'object' || seen.has(s)) return { props, required };
  seen.add(s);
  Object.assign(props, s.properties ?? {});
  for (const r of (s.required as string[] | undefined) ?? []) required.add(r);
  for (const part of (s.allOf as Schema[] | undefined) ?? []) {
    const f = flatten(part, seen);
    Object.assign(props, f.props);
    f.required.forEach((r) => required.add(r));
  }
  for (const part of [...((s.oneOf as Schema[]) ?? []), ...((s.anyOf as Schema[]) ?? [])]) {
    const f = flatten(part, seen);
    for (const [k, v] of Object.entries(f.props)) props[k] ??= v;
  }
  return { props, required };
}

const isSubset = <T>(a: Set<T>, b: Set<T>) => [...a].every((x) => b.has(x));
const list = (s: Set<string>) => [...s].sort().join(' | ');

interface Walk {
  add(location: string, message: string, deprecated: boolean): void;
  seen: Set<string>;
  ids: WeakMap<object, number>;
  next: { id: number };
}

function idOf(w: Walk, o: object): number {
  let id = w.ids.get(o);
  if (id === undefined) w.ids.set(o, (id = ++w.next.id));
  return id;
}

/**
 * Compares a schema the old document took in requests (`direction: 'request'`) or gave in responses
 * with the new one. Requests break when the new schema accepts less; responses when they give less
 * than before (a removed property) or a type the old clients never saw.
 */
function compareSchema(
  w: Walk,
  oldS: Schema | undefined,
  newS: Schema | undefined,
  where: string,
  direction: 'request' | 'response',
  depth = 0,
): void {
  if (!oldS || !newS || typeof oldS !== 'object' || typeof newS !== 'object' || depth > MAX_DEPTH) return;
  const key = `${direction}:${idOf(w, oldS)}:${idOf(w, newS)}`;
  if (w.seen.has(key)) return;
  w.seen.add(key);
  const deprecated = oldS.deprecated === true;
  const [ot, nt] = [typesOf(oldS), typesOf(newS)];
  if (ot.size && nt.size) {
    if (direction === 'request' && !isSubset(ot, nt))
      w.add(where, `type ${list(ot)} became ${list(nt)}: requests sending ${list(ot)} now fail`, deprecated);
    if (direction === 'response' && !isSubset(nt, ot))
      w.add(where, `type ${list(ot)} became ${list(nt)}: responses may carry a type clients never saw`, deprecated);
  }
  if (direction === 'request' && Array.isArray(oldS.enum) && Array.isArray(newS.enum)) {
    const gone = (oldS.enum as unknown[]).filter((v) => !(newS.enum as unknown[]).includes(v));
    if (gone.length)
      w.add(where, `enum no longer accepts ${gone.map((v) => JSON.stringify(v)).join(', ')}`, deprecated);
  }
  // A limit that tightens breaks requests that passed; declaring one where there was none documents what the
  // service already enforced (as oasdiff, only a changed limit is an error).
  if (direction === 'request') {
    for (const limit of ['maxLength', 'maximum', 'maxItems', 'minLength', 'minimum', 'minItems'] as const) {
      const [o, n] = [oldS[limit] as number | undefined, newS[limit] as number | undefined];
      if (o === undefined || n === undefined) continue;
      if (limit.startsWith('max') ? n < o : n > o)
        w.add(where, `${limit} ${o} became ${n}: requests that passed may now fail`, deprecated);
    }
  }
  const [o, n] = [flatten(oldS), flatten(newS)];
  for (const [name, oldProp] of Object.entries(o.props)) {
    const at = `${where}.${name}`;
    const newProp = n.props[name];
    if (!newProp) {
      if (direction === 'response') w.add(at, 'property removed from the response', oldProp?.deprecated === true);
      else if (newS.additionalProperties === false && Object.keys(n.props).length)
        w.add(at, 'request property removed: requests sending it are now refused', oldProp?.deprecated === true);
      continue;
    }
    if (direction === 'response' && o.required.has(name) && !n.required.has(name))
      w.add(at, 'response property is no longer always present', oldProp?.deprecated === true);
    compareSchema(w, oldProp, newProp, at, direction, depth + 1);
  }
  if (direction === 'request') {
    for (const name of n.required)
      if (!o.required.has(name)) w.add(`${where}.${name}`, 'request property became required', false);
  }
  if (oldS.items || newS.items) compareSchema(w, oldS.items, newS.items, `${where}[]`, direction, depth + 1);
}

const jsonSchema = (content: Record<string, any> | undefined): Schema | undefined => {
  if (!content) return undefined;
  const json = Object.entries(content).find(([type]) => /json/.test(type));
  return (json ?? Object.entries(content)[0])?.[1]?.schema as Schema | undefined;
};

function compareOperation(w: Walk, oldOp: Doc, newOp: Doc): void {
  const params = (op: Doc) =>
    new Map<string, Doc>(((op.parameters as Doc[]) ?? []).map((p) => [`${p.in}.${p.name}`, p]));
  const [op, np] = [params(oldOp), params(newOp)];
  for (const [name, p] of op) {
    const q = np.get(name);
    if (!q) w.add(`parameter ${name}`, 'parameter removed: requests sending it are now refused', p.deprecated === true);
    else compareSchema(w, p.schema as Schema, q.schema as Schema, `parameter ${name}`, 'request');
  }
  for (const [name, q] of np)
    if (q.required && !op.get(name)?.required) w.add(`parameter ${name}`, 'parameter became required', false);

  const [ob, nb] = [oldOp.requestBody as Doc | undefined, newOp.requestBody as Doc | undefined];
  if (nb?.required && ob && !ob.required) w.add('request body', 'request body became required', false);
  if (!ob && nb?.required) w.add('request body', 'a required request body was added', false);
  compareSchema(w, jsonSchema(ob?.content), jsonSchema(nb?.content), 'request body', 'request');

  for (const [status, oldRes] of Object.entries((oldOp.responses as Doc) ?? {})) {
    const newRes = (newOp.responses as Doc | undefined)?.[status] as Doc | undefined;
    if (!newRes) {
      if (/^2/.test(status)) w.add(`response ${status}`, 'success response removed', false);
      continue;
    }
    if (!/^2/.test(status)) continue;
    compareSchema(w, jsonSchema(oldRes.content), jsonSchema(newRes.content), `response ${status} body`, 'response');
  }
}

/** Every breaking change from `oldDoc` to `newDoc` (both dereferenced: no `$ref` left). */
export function openApiBreakingChanges(oldDoc: Doc, newDoc: Doc): OpenApiChange[] {
  const out: OpenApiChange[] = [];
  for (const [path, oldItem] of Object.entries((oldDoc.paths as Doc) ?? {})) {
    const newItem = (newDoc.paths as Doc | undefined)?.[path] as Doc | undefined;
    for (const method of METHODS) {
      const oldOp = oldItem?.[method] as Doc | undefined;
      if (!oldOp) continue;
      const operation = `${method.toUpperCase()} ${path}`;
      const opDeprecated = oldOp.deprecated === true;
      const sunset = typeof oldOp['x-sunset'] === 'string' ? (oldOp['x-sunset'] as string) : undefined;
      const push = (location: string, message: string, deprecated: boolean) =>
        out.push({ operation, location, message, deprecated: opDeprecated || deprecated, sunset });
      const newOp = newItem?.[method] as Doc | undefined;
      if (!newOp) {
        push('', newItem ? 'operation removed' : 'path removed', false);
        continue;
      }
      // Parameters declared on the path item apply to each of its operations.
      const withPathParams = (item: Doc, op: Doc) => ({
        ...op,
        parameters: [...((item.parameters as Doc[]) ?? []), ...((op.parameters as Doc[]) ?? [])],
      });
      compareOperation(
        { add: push, seen: new Set(), ids: new WeakMap(), next: { id: 0 } },
        withPathParams(oldItem as Doc, oldOp),
        withPathParams(newItem as Doc, newOp),
      );
    }
  }
  return out;
}
