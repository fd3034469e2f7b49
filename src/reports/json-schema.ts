/**
 * The JSON Schema (2020-12) of the report query document, generated from the catalogue: per entity,
 * which fields exist, which ops each allows and what values they take. A client can build a query form
 * from it or validate a query before sending; the server's validator (validate.ts) remains the judge.
 */
import {
  AGGREGATE_FNS,
  BUCKETS,
  CATALOGUE,
  ENTITIES,
  LABEL_KEY,
  OPS,
  OPS_BY_TYPE,
  PAYLOAD_PATH,
  publicCatalogue,
  type FieldType,
} from './catalogue.js';
import { REPORT_LIMITS } from './validate.js';

type Schema = Record<string, unknown>;

function scalar(type: FieldType, values?: readonly string[]): Schema {
  const str = { type: 'string', maxLength: REPORT_LIMITS.maxStringValue };
  switch (type) {
    case 'enum':
      return { enum: [...values!] };
    case 'integer':
      return { type: 'number' };
    case 'timestamp':
      return { type: 'string', format: 'date-time', maxLength: 40 };
    case 'boolean':
      return { type: 'boolean' };
    case 'json':
      return { anyOf: [str, { type: 'number' }, { type: 'boolean' }, { type: 'null' }] };
    default:
      return str;
  }
}

function filterFor(field: Schema, type: FieldType, values?: readonly string[]): Schema {
  const ops = OPS_BY_TYPE[type];
  const one = scalar(type, values);
  return {
    type: 'object',
    required: ['field', 'op'],
    additionalProperties: false,
    properties: {
      field,
      op: { enum: [...ops] },
      value: { anyOf: [one, { type: 'array', minItems: 1, maxItems: REPORT_LIMITS.maxInValues, items: one }] },
    },
  };
}

function fieldNameSchema(entity: (typeof ENTITIES)[number], groupableOnly = false): Schema {
  const def = CATALOGUE[entity];
  const names = def.fields.filter((f) => !groupableOnly || f.groupable).map((f) => f.name);
  const anyOf: Schema[] = [{ enum: names }];
  if (def.hasLabels)
    anyOf.push({ type: 'string', pattern: `^labels\\.${LABEL_KEY.source.slice(1, -1)}$`, maxLength: 135 });
  if (def.hasPayload)
    anyOf.push({ type: 'string', pattern: `^payload\\.${PAYLOAD_PATH.source.slice(1, -1)}$`, maxLength: 528 });
  return { anyOf };
}

/** The schema document: the query body, with one branch per entity. */
export function reportQueryJsonSchema(): Schema {
  const common = {
    since_hours: {
      type: ['integer', 'null'],
      minimum: 1,
      maximum: REPORT_LIMITS.maxSinceHours,
      default: REPORT_LIMITS.defaultSinceHours,
      description: 'Time window over the entity time field; null (no window) only for devices and proposals.',
    },
    bucket: {
      enum: [...Object.keys(BUCKETS), null],
      description: 'Time bucket over the entity time field; output column `bucket`.',
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: REPORT_LIMITS.maxExportRows,
      description: `Default ${REPORT_LIMITS.defaultLimit}; at most ${REPORT_LIMITS.maxLimit} for a query and ${REPORT_LIMITS.maxExportRows} for an export.`,
    },
    order_by: {
      type: 'array',
      maxItems: REPORT_LIMITS.maxOrderBy,
      items: {
        anyOf: [
          { type: 'string', maxLength: 600 },
          {
            type: 'object',
            required: ['field'],
            additionalProperties: false,
            properties: { field: { type: 'string', maxLength: 600 }, dir: { enum: ['asc', 'desc'] } },
          },
        ],
      },
      description: 'Output column names.',
    },
  };
  const branches = ENTITIES.map((entity) => {
    const def = CATALOGUE[entity];
    const filters: Schema[] = def.fields.map((f) => filterFor({ const: f.name }, f.type, f.values));
    if (def.hasLabels)
      filters.push(
        filterFor(fieldNameSchema(entity).anyOf ? (fieldNameSchema(entity).anyOf as Schema[])[1] : {}, 'label'),
      );
    if (def.hasPayload) filters.push(filterFor((fieldNameSchema(entity).anyOf as Schema[]).at(-1)!, 'json'));
    return {
      if: { properties: { entity: { const: entity } } },
      then: {
        properties: {
          filters: { type: 'array', maxItems: REPORT_LIMITS.maxFilters, items: { anyOf: filters } },
          group_by: { type: 'array', maxItems: REPORT_LIMITS.maxGroupBy, items: fieldNameSchema(entity, true) },
          columns: { type: 'array', maxItems: REPORT_LIMITS.maxColumns, items: fieldNameSchema(entity) },
          aggregate: {
            anyOf: [
              { enum: [...AGGREGATE_FNS] },
              {
                type: 'array',
                maxItems: REPORT_LIMITS.maxAggregates,
                items: {
                  type: 'object',
                  required: ['fn'],
                  additionalProperties: false,
                  properties: { fn: { enum: [...AGGREGATE_FNS] }, field: fieldNameSchema(entity) },
                },
              },
            ],
          },
        },
      },
    };
  });
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'urn:ops-service:report-query',
    title: 'Report query',
    type: 'object',
    required: ['entity'],
    additionalProperties: false,
    properties: {
      entity: { enum: [...ENTITIES] },
      ...common,
      filters: {
        type: 'array',
        maxItems: REPORT_LIMITS.maxFilters,
        items: {
          type: 'object',
          required: ['field', 'op'],
          properties: { field: { type: 'string' }, op: { enum: [...OPS] }, value: true },
        },
      },
      group_by: { type: 'array', maxItems: REPORT_LIMITS.maxGroupBy, items: { type: 'string' } },
      columns: { type: 'array', maxItems: REPORT_LIMITS.maxColumns, items: { type: 'string' } },
      aggregate: true,
    },
    allOf: branches,
  };
}

/** GET /reports/query/schema and `reportSchema`: the schema, the catalogue and the limits. */
export function reportSchemaDocument() {
  return { schema: reportQueryJsonSchema(), catalogue: publicCatalogue(), limits: { ...REPORT_LIMITS } };
}
