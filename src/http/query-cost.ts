/**
 * The cost of a GraphQL operation in nodes, counted the way GitHub's GraphQL API limits node counts:
 * a paginated field (an Int argument `first`, `last` or `limit`) returns up to its page size of objects
 * for each object it is selected on, and those multiply whatever paginated field is selected inside.
 * A single object (`device`, `proposer`) comes with its parent and adds no node; a list without page
 * arguments is bounded by its parent (an alert's timeline) and multiplies by one.
 *
 *   alerts(first: 50) { edges { node { events(limit: 5) { id } device { proposals(first: 10) { … } } } } }
 *   = 50 alerts + 50 × 5 events + 50 × 10 proposals = 800 nodes
 *
 * Page sizes come from the argument (a literal or a variable's value), else the operation's variable
 * default, else the argument's default in the schema, else ASSUMED_PAGE_SIZE. Introspection costs
 * nothing (the token limit bounds it). REST's route operations are the service's own documents, their
 * page sizes bounded by the OpenAPI contract (`GET /copilot/history?limit=50` asks for 50 × 100 messages):
 * rest/adapter.ts marks them, and they are not counted. A pure function of (schema, document, variables), so the
 * server and test/console-documents.test.ts (on the printed schema.graphql) count alike.
 */
import {
  Kind,
  getNamedType,
  isCompositeType,
  isObjectType,
  isInterfaceType,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { QueryTooComplex } from '../errors.js';

/** Most nodes one operation may ask for (docs/integrating.md's dashboard query asks for 800). */
export const MAX_QUERY_NODES = 5000;
/** The page size counted for a paginated field whose size the query leaves out (the largest default page). */
export const ASSUMED_PAGE_SIZE = 100;
/** Arguments that bound how many objects a list field returns. */
const PAGE_ARGS = ['first', 'last', 'limit'] as const;

type Variables = Record<string, unknown> | null | undefined;

interface Walk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

function intOf(node: ValueNode | undefined, walk: Walk): number | undefined {
  if (!node) return undefined;
  if (node.kind === Kind.INT) return Number(node.value);
  if (node.kind === Kind.VARIABLE) {
    const v = walk.variables[node.name.value];
    // A value GraphQL will refuse to coerce (past 32 bits) is left to that refusal.
    return Number.isInteger(v) && Math.abs(v as number) <= 2 ** 31 - 1 ? (v as number) : undefined;
  }
  return undefined;
}

/** How many objects a paginated field may return for each of its parents (undefined: not paginated). */
function pageSize(
  field: GraphQLField<unknown, unknown>,
  args: readonly { name: { value: string }; value: ValueNode }[],
  walk: Walk,
): number | undefined {
  const pageArgs = field.args.filter((a) => (PAGE_ARGS as readonly string[]).includes(a.name));
  if (!pageArgs.length) return undefined;
  const given = pageArgs
    .map((a) => intOf(args.find((x) => x.name.value === a.name)?.value, walk))
    .filter((n): n is number => n !== undefined);
  if (given.length) return Math.max(0, ...given);
  const defaults = pageArgs.map((a) => a.defaultValue).filter((d): d is number => typeof d === 'number');
  return defaults.length ? Math.max(...defaults) : ASSUMED_PAGE_SIZE;
}

function selectionCost(
  parent: GraphQLNamedType,
  set: SelectionSetNode,
  multiplier: number,
  walk: Walk,
  seen: ReadonlySet<string>,
): number {
  let nodes = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FRAGMENT_SPREAD) {
      const frag = walk.fragments.get(sel.name.value);
      if (!frag || seen.has(frag.name.value)) continue;
      const on = walk.schema.getType(frag.typeCondition.name.value) ?? parent;
      nodes += selectionCost(on, frag.selectionSet, multiplier, walk, new Set([...seen, frag.name.value]));
      continue;
    }
    if (sel.kind === Kind.INLINE_FRAGMENT) {
      const on = sel.typeCondition ? (walk.schema.getType(sel.typeCondition.name.value) ?? parent) : parent;
      nodes += selectionCost(on, sel.selectionSet, multiplier, walk, seen);
      continue;
    }
    if (sel.name.value.startsWith('__') || !sel.selectionSet) continue; // introspection and scalars
    if (!isObjectType(parent) && !isInterfaceType(parent)) continue;
    const field = parent.getFields()[sel.name.value];
    if (!field) continue;
    const type = getNamedType(field.type);
    if (!isCompositeType(type)) continue;
    const size = pageSize(field, sel.arguments ?? [], walk);
    const count = multiplier * (size ?? 1);
    if (size !== undefined) nodes += count;
    nodes += selectionCost(type, sel.selectionSet, count, walk, seen);
  }
  return nodes;
}

/** Variable values with the operation's defaults filled in (literal defaults only). */
function withDefaults(op: OperationDefinitionNode, variables: Variables): Record<string, unknown> {
  const values: Record<string, unknown> = { ...(variables ?? {}) };
  for (const def of op.variableDefinitions ?? []) {
    const name = def.variable.name.value;
    if (values[name] == null && def.defaultValue?.kind === Kind.INT) values[name] = Number(def.defaultValue.value);
  }
  return values;
}

/** The service's own documents (REST route operations), bounded by the REST contract instead. */
const serviceDocuments = new WeakSet<DocumentNode>();

/** Marks a document the service wrote itself and bounds elsewhere, so the node limit does not apply to it. */
export function markServiceDocument(document: DocumentNode): void {
  serviceDocuments.add(document);
}

/** The node count of the operation `operationName` (or the only one) of `document`. */
export function queryNodes(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables?: Variables,
  operationName?: string | null,
): number {
  const ops = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const op = operationName ? ops.find((o) => o.name?.value === operationName) : ops[0];
  if (!op) return 0;
  const root =
    op.operation === 'query'
      ? schema.getQueryType()
      : op.operation === 'mutation'
        ? schema.getMutationType()
        : schema.getSubscriptionType();
  if (!root) return 0;
  const fragments = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((f) => [f.name.value, f]),
  );
  return selectionCost(
    root,
    op.selectionSet,
    1,
    { schema, fragments, variables: withDefaults(op, variables) },
    new Set(),
  );
}

/**
 * Costs already counted, per schema and document (yoga's parser cache hands a repeated query the same
 * document), by operation name and variable values: a repeated operation (a dashboard's polling) is not
 * walked again. Small variable sets only, a few per document.
 */
const counted = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, number>>>();
const MAX_COUNTED_VARIABLES_CHARS = 512;
const MAX_COUNTED_PER_DOCUMENT = 16;

function cachedQueryNodes(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables?: Variables,
  operationName?: string | null,
): number {
  const json = JSON.stringify(variables ?? null);
  if (json.length > MAX_COUNTED_VARIABLES_CHARS) return queryNodes(schema, document, variables, operationName);
  let bySchema = counted.get(schema);
  if (!bySchema) counted.set(schema, (bySchema = new WeakMap()));
  let byDocument = bySchema.get(document);
  if (!byDocument) bySchema.set(document, (byDocument = new Map()));
  const key = `${operationName ?? ''}\u0000${json}`;
  let cost = byDocument.get(key);
  if (cost === undefined) {
    cost = queryNodes(schema, document, variables, operationName);
    if (byDocument.size >= MAX_COUNTED_PER_DOCUMENT) byDocument.clear();
    byDocument.set(key, cost);
  }
  return cost;
}

/** QUERY_TOO_COMPLEX (with the cost and the limit) when the operation asks for more than MAX_QUERY_NODES nodes. */
export function queryCostError(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables?: Variables,
  operationName?: string | null,
): QueryTooComplex | undefined {
  if (serviceDocuments.has(document)) return undefined;
  const cost = cachedQueryNodes(schema, document, variables, operationName);
  return cost > MAX_QUERY_NODES ? new QueryTooComplex(cost, MAX_QUERY_NODES) : undefined;
}
