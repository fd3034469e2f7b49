/**
 * `npm run schema:print` (with the GraphQL schema): writes the TypeScript types of the REST contract
 * (openapi-typescript over the merged rest/openapi/*.yaml) to `src/openapi-types.ts`, so the one wire shape of a
 * resource (src/alerts/wire.ts `AlertWire`, …) is checked against its OpenAPI schema by the compiler. The file is
 * committed; test/schema.test.ts fails when it is stale.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { loadOpenApi } from '../rest/openapi.js';

export const OPENAPI_TYPES_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'src',
  'openapi-types.ts',
);

const HEADER =
  '/* eslint-disable */\n// Generated from rest/openapi/*.yaml by `npm run schema:print` (openapi-typescript). Do not edit by hand.\n\n';

/** The types file exactly as `src/openapi-types.ts` should hold it. */
export async function renderOpenApiTypes(): Promise<string> {
  return HEADER + astToString(await openapiTS(loadOpenApi() as never));
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  fs.writeFileSync(OPENAPI_TYPES_FILE, await renderOpenApiTypes());
  process.stdout.write(`wrote ${path.relative(process.cwd(), OPENAPI_TYPES_FILE)}\n`);
}
