/**
 * `npm run schema:print`: writes the GraphQL schema built from the code to `schema.graphql`, sorted so
 * the file changes only when the schema does. The file is committed; a test fails when it is stale.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';

export const SCHEMA_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'schema.graphql');

const HEADER = '# Generated from schema/*.ts by `npm run schema:print`. Do not edit by hand.\n\n';

/** The SDL of `schema` exactly as `schema.graphql` should hold it (sorted, with the header). */
export function renderSchema(schema: GraphQLSchema): string {
  return HEADER + printSchema(lexicographicSortSchema(schema)) + '\n';
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const { schema } = await import('../schema/index.js');
  fs.writeFileSync(SCHEMA_FILE, renderSchema(schema));
  process.stdout.write(`wrote ${path.relative(process.cwd(), SCHEMA_FILE)}\n`);
}
