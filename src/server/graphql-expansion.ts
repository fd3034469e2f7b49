/**
 * Fragment limits of a GraphQL document, checked right after parsing and before graphql-js' validation.
 *
 * A document of fragments that each spread the next one twice (`query { ...F0 } fragment F0 on Query
 * { ...F1 ...F1 } … fragment F21 on Query { __typename }`) is 864 bytes and well inside the token, depth
 * and alias limits, yet expands to 2²² selections: graphql-js' OverlappingFieldsCanBeMerged compares them
 * pairwise and the depth rule walks every expansion, seconds of CPU per request (issue 40). Here each
 * fragment's expanded size is computed once (memoised, so the walk costs the document's size, not its
 * expansion) and the document is refused when it spreads fragments more than MAX_FRAGMENT_SPREADS times
 * or would expand to more than MAX_EXPANDED_SELECTIONS selections. Whitespace and names do not matter:
 * the limits count the parsed document.
 */
import { GraphQLError, Kind, type DocumentNode, type SelectionSetNode } from 'graphql';

/** Fragment spreads written in one document (GraphiQL's introspection query has 8). */
export const MAX_FRAGMENT_SPREADS = 100;
/** Selections (fields and inline fragments) of the largest operation or fragment once every spread is written out (introspection: 229). */
export const MAX_EXPANDED_SELECTIONS = 2000;
/**
 * Field pairs OverlappingFieldsCanBeMerged may compare: for fields sharing a response name in one
 * selection set, the product of their expanded sizes (a pair of fields compares their subfields pairwise,
 * so `size(a) × size(b)` bounds it). `{ me { id } me { id } … }` 300 times is 179,400; a document whose
 * fields each appear once is 0.
 */
export const MAX_FIELD_MERGE_PAIRS = 10_000;

type Limit = 'MAX_FRAGMENT_SPREADS' | 'MAX_EXPANDED_SELECTIONS' | 'MAX_FIELD_MERGE_PAIRS';

/** Why a document was refused, with the limit it broke. */
export interface ExpansionRefusal {
  limit: Limit;
  max: number;
  message: string;
}

/** What a document asks of validation once its fragments are spread. */
export interface Expansion {
  /** Fragment spreads written in the document. */
  spreads: number;
  /** Selections of the largest of its operations and fragments, expanded. */
  selections: number;
  /** Field pairs sharing a response name, weighted by size (MAX_FIELD_MERGE_PAIRS). */
  mergePairs: number;
}

/** Numbers stop here: a fragment bomb's 2^1000 is "too many", and Infinity − Infinity would be NaN. */
const SATURATED = 1e9;
const sat = (n: number) => (n > SATURATED ? SATURATED : n);

/** A selection set's expanded size and its fields grouped by response name (inline fragments and spreads merged in). */
interface SetShape {
  size: number;
  groups: Map<string, { sum: number; sumOfSquares: number }>;
}

function addTo(groups: SetShape['groups'], name: string, sum: number, sumOfSquares: number): void {
  const g = groups.get(name);
  if (g) {
    g.sum = sat(g.sum + sum);
    g.sumOfSquares = sat(g.sumOfSquares + sumOfSquares);
  } else groups.set(name, { sum, sumOfSquares });
}

/**
 * Measures the document without expanding anything: every selection set is walked once and each
 * fragment's shape is memoised, so the cost is the document's size (bounded by the token limit), not
 * its expansion.
 */
export function measureExpansion(document: DocumentNode): Expansion {
  const fragments = new Map<string, SelectionSetNode>();
  const operations: SelectionSetNode[] = [];
  for (const def of document.definitions) {
    if (def.kind === Kind.FRAGMENT_DEFINITION) {
      // A name defined twice is a validation error of its own (UniqueFragmentNames); measure the first.
      if (!fragments.has(def.name.value)) fragments.set(def.name.value, def.selectionSet);
    } else if (def.kind === Kind.OPERATION_DEFINITION) operations.push(def.selectionSet);
  }
  let spreads = 0;
  let mergePairs = 0;
  const empty: SetShape = { size: 0, groups: new Map() };
  /** Shape per fragment; `null` while it is being measured (a cycle counts as empty: NoFragmentCycles reports it). */
  const shapes = new Map<string, SetShape | null>();
  const fragmentShape = (name: string): SetShape => {
    const known = shapes.get(name);
    if (known !== undefined) return known ?? empty;
    const set = fragments.get(name);
    if (!set) return empty; // unknown: KnownFragmentNames reports it
    shapes.set(name, null);
    const shape = setShape(set);
    shapes.set(name, shape);
    return shape;
  };
  const setShape = (set: SelectionSetNode): SetShape => {
    let size = 0;
    const groups: SetShape['groups'] = new Map();
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        const fieldSize = sat(1 + (sel.selectionSet ? setShape(sel.selectionSet).size : 0));
        size = sat(size + fieldSize);
        addTo(groups, sel.alias?.value ?? sel.name.value, fieldSize, sat(fieldSize * fieldSize));
        continue;
      }
      let inner: SetShape;
      if (sel.kind === Kind.FRAGMENT_SPREAD) {
        spreads++;
        inner = fragmentShape(sel.name.value);
      } else {
        inner = setShape(sel.selectionSet);
        size = sat(size + 1);
      }
      size = sat(size + inner.size);
      for (const [name, g] of inner.groups) addTo(groups, name, g.sum, g.sumOfSquares);
    }
    // Pairs of fields sharing a name here: Σ_{i<j} size_i × size_j = (sum² − Σ size²) / 2.
    for (const g of groups.values()) mergePairs = sat(mergePairs + Math.max(0, (g.sum * g.sum - g.sumOfSquares) / 2));
    return { size, groups };
  };
  let selections = 0;
  for (const op of operations) selections = Math.max(selections, setShape(op).size);
  // Every fragment counts on its own too, used or not: validation walks each definition.
  for (const name of fragments.keys()) selections = Math.max(selections, fragmentShape(name).size);
  return { spreads, selections, mergePairs };
}

/** The document's limits before validation: the one it breaks, or undefined. */
export function fragmentExpansionRefusal(document: DocumentNode): ExpansionRefusal | undefined {
  const { spreads, selections, mergePairs } = measureExpansion(document);
  if (spreads > MAX_FRAGMENT_SPREADS)
    return {
      limit: 'MAX_FRAGMENT_SPREADS',
      max: MAX_FRAGMENT_SPREADS,
      message: `This document spreads fragments ${spreads} times; the limit is ${MAX_FRAGMENT_SPREADS} (MAX_FRAGMENT_SPREADS).`,
    };
  if (selections > MAX_EXPANDED_SELECTIONS)
    return {
      limit: 'MAX_EXPANDED_SELECTIONS',
      max: MAX_EXPANDED_SELECTIONS,
      message: `This document expands to more than ${MAX_EXPANDED_SELECTIONS} selections once its fragments are spread; the limit is ${MAX_EXPANDED_SELECTIONS} (MAX_EXPANDED_SELECTIONS). Spread each fragment fewer times.`,
    };
  if (mergePairs > MAX_FIELD_MERGE_PAIRS)
    return {
      limit: 'MAX_FIELD_MERGE_PAIRS',
      max: MAX_FIELD_MERGE_PAIRS,
      message: `This document repeats fields under one name so often that checking they merge would compare ${mergePairs >= SATURATED ? 'more than ' + SATURATED : mergePairs} field pairs; the limit is ${MAX_FIELD_MERGE_PAIRS} (MAX_FIELD_MERGE_PAIRS). Ask for each field once per selection.`,
    };
  return undefined;
}

/** The refusal as the GraphQL error answered over HTTP (400) and graphql-ws. */
export function expansionError(refusal: ExpansionRefusal): GraphQLError {
  return new GraphQLError(refusal.message, {
    extensions: {
      code: 'GRAPHQL_VALIDATION_FAILED',
      limit: refusal.limit,
      max: refusal.max,
      // Yoga answers validation errors 200 to `application/json` clients (spec: true, per GraphQL over
      // HTTP); this refusal is a 400 for every client.
      http: { status: 400, spec: false },
    },
  });
}
