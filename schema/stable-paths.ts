/**
 * A Pothos plugin that gives every resolver one response-path object per path of a request, whichever
 * executor runs it.
 *
 * plugin-prisma (through @pothos/selection-mapper) records what a planned query loaded under the
 * `info.path` object of the field that loaded it, in WeakMaps, and finds it again from a nested field by
 * walking that field's `info.path.prev` links: it relies on graphql-js sharing a parent's path link with
 * every child. A compiled executor (graphql-jit, src/server/compiled-execution.ts) builds a fresh path
 * literal for each resolver call, so those lookups would miss and every relation would be loaded again,
 * one query per row. Here, in a request marked with `canonicalizePaths`, each resolver that is not a plain
 * property read gets `info.path` replaced by the request's canonical link for the same keys (a tree of
 * links per context, one Map lookup per level): the identity graphql-js gives.
 *
 * Just before PrismaPlugin in the builder's plugin list, so its wrapper is just outside plugin-prisma's:
 * plugin-prisma's checks and every resolver inside them see the canonical path, while the loaded-scalars
 * plugin's plain column reads, further out, skip the lookup. Fields Pothos leaves to the default resolver
 * stay without one (the executor reads the property itself, and a compiled executor inlines it).
 */
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import { defaultFieldResolver, type GraphQLFieldResolver, type GraphQLResolveInfo } from 'graphql';

export const STABLE_PATHS_PLUGIN = 'stablePaths' as const;

type Path = GraphQLResolveInfo['path'];

/** A canonical response-path link: the same object for the same keys within one request. */
interface CanonicalPath {
  readonly prev: CanonicalPath | undefined;
  readonly key: string | number;
  readonly typename: string | undefined;
  children?: Map<string | number, CanonicalPath>;
}

/** The root links of each request run by an executor that builds fresh path literals, by its context object. */
const rootsByContext = new WeakMap<object, Map<string | number, CanonicalPath>>();

/**
 * Marks the request whose context is `context` as run by an executor that builds a fresh path object per
 * resolver call (graphql-jit). Requests graphql-js runs keep its own shared links, untouched: the function
 * returned unmarks it (for a request handed back to graphql-js before any resolver ran).
 */
export function canonicalizePaths(context: object): () => void {
  if (!rootsByContext.has(context)) rootsByContext.set(context, new Map());
  return () => rootsByContext.delete(context);
}

function child(
  children: Map<string | number, CanonicalPath>,
  prev: CanonicalPath | undefined,
  path: Path,
): CanonicalPath {
  let link = children.get(path.key);
  if (!link) {
    link = { prev, key: path.key, typename: path.typename };
    children.set(path.key, link);
  }
  return link;
}

/** The canonical link of `path` in the request whose root links are `roots`. */
function canonicalPath(roots: Map<string | number, CanonicalPath>, path: Path): CanonicalPath {
  if (!path.prev) return child(roots, undefined, path);
  const prev = canonicalPath(roots, path.prev);
  return child((prev.children ??= new Map()), prev, path);
}

export class StablePathsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object>,
    _fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> {
    if (resolver === defaultFieldResolver) return resolver;
    return (parent, args, context, info) => {
      const roots = rootsByContext.get(context as object);
      // graphql-jit builds a fresh info object per call: replacing its path is local to this call.
      if (roots) (info as { path: Path }).path = canonicalPath(roots, info.path) as Path;
      return resolver(parent, args, context, info);
    };
  }
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  export namespace PothosSchemaTypes {
    interface Plugins<Types extends SchemaTypes> {
      stablePaths: StablePathsPlugin<Types>;
    }
  }
}

SchemaBuilder.registerPlugin(STABLE_PATHS_PLUGIN, StablePathsPlugin);
