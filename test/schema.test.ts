import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from '../schema/index.js';
import { SCHEMA_FILE, renderSchema } from '../scripts/print-schema.js';
import { OPENAPI_TYPES_FILE, renderOpenApiTypes } from '../scripts/print-openapi-types.js';
import { format, resolveConfig } from 'prettier';

describe('schema.graphql', () => {
  it('matches the schema built from the code (otherwise run npm run schema:print)', () => {
    const committed = fs.existsSync(SCHEMA_FILE) ? fs.readFileSync(SCHEMA_FILE, 'utf8') : '';
    const live = renderSchema(schema);
    expect(committed, 'schema.graphql is stale: run npm run schema:print (and commit schema.graphql)').toBe(live);
  });

  it('src/openapi-types.ts matches the REST contract (otherwise run npm run schema:print)', async () => {
    const committed = fs.existsSync(OPENAPI_TYPES_FILE) ? fs.readFileSync(OPENAPI_TYPES_FILE, 'utf8') : '';
    const options = { ...(await resolveConfig(OPENAPI_TYPES_FILE)), filepath: OPENAPI_TYPES_FILE };
    const live = await format(await renderOpenApiTypes(), options);
    expect(committed === live, 'src/openapi-types.ts is stale: run npm run schema:print (and commit it)').toBe(true);
    const sdkCopy = fs.readFileSync(
      OPENAPI_TYPES_FILE.replace(/src[/\\]openapi-types\.ts$/, 'sdk/src/openapi-types.ts'),
      'utf8',
    );
    expect(sdkCopy === committed, 'sdk/src/openapi-types.ts is stale: run npm run schema:print (and commit it)').toBe(
      true,
    );
  });

  it('is valid SDL that round-trips to the same schema', () => {
    const parsed = buildSchema(fs.readFileSync(SCHEMA_FILE, 'utf8'));
    expect(printSchema(lexicographicSortSchema(parsed))).toBe(printSchema(lexicographicSortSchema(schema)));
  });
});
