/**
 * Typed GraphQL documents: `graphql(\`…\`)` infers each document's result and variables from
 * schema.graphql (gql.tada; the schema's types are generated into src/graphql-env.d.ts by
 * `npm run console:types`, which `npm install` and `npm run typecheck` run). A field the schema does not
 * have is a type error, and test/console-documents.test.ts validates every document against the schema
 * and the server's limits.
 */
import { initGraphQLTada } from 'gql.tada';
import type { introspection } from '../graphql-env.d.ts';

export const graphql = initGraphQLTada<{
  introspection: introspection;
  scalars: { DateTime: string; JSON: unknown; ID: string };
}>();

export type { ResultOf, VariablesOf } from 'gql.tada';
