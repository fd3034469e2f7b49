/**
 * The one way REST unwraps GraphQL lists: a connection's nodes as `{"items": [...]}` (DESIGN: the
 * shape of lists of domain objects), or as a bare array where docs/spec.md says so (GET /events,
 * GET /auth/tokens).
 */
export interface Connection<N> {
  edges: Array<{ node: N }>;
}

/** The nodes of a connection, each through `present`. */
export function nodesOf<N, R>(connection: Connection<N>, present: (node: N) => R): R[] {
  return connection.edges.map((e) => present(e.node));
}

/** `{items}` of a connection's nodes. */
export function itemsOf<N, R>(connection: Connection<N>, present: (node: N) => R): { items: R[] } {
  return { items: nodesOf(connection, present) };
}

/** A bare array of a connection's nodes, or of a plain list. */
export function arrayOf<N, R>(list: Connection<N> | N[], present: (node: N) => R): R[] {
  return Array.isArray(list) ? list.map(present) : nodesOf(list, present);
}
