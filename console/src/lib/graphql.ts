/**
 * Typed GraphQL documents: `graphql(\`…\`)` infers each document's result and variables from
 * schema.graphql (gql.tada; the schema's types are generated into src/graphql-env.d.ts by
 * `npm run console:types`, which `npm install` and `npm run typecheck` run). A field the schema does not
 * have is a type error, and test/console-documents.test.ts validates every document against the schema
 * and the server's limits.
 */
import { initGraphQLTada } from 'gql.tada';
import type { introspection } from '../graphql-env.d.ts';

/** The JSON scalar: any JSON value; code that reads one checks what it finds (pages/reports/query.ts). */
export type Json = unknown;

export const graphql = initGraphQLTada<{
  introspection: introspection;
  scalars: { DateTime: string; JSON: Json; ID: string };
}>();

/**
 * Fragments per component: a component that renders a piece of a result declares that piece as a
 * `graphql(\`fragment Console… on Type { … }\`)` next to it and takes `FragmentOf<typeof F>`; the
 * documents that feed it spread the fragment (`graphql(\`… { ...Console… }\`, [F])`). Masking is on:
 * the parent sees only a reference, and only `readFragment(F, data)` in the component reads the fields.
 */
export { readFragment } from 'gql.tada';
export type { FragmentOf, ResultOf, VariablesOf } from 'gql.tada';
