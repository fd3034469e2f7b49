/**
 * The GraphQL convention of CONTRIBUTING.md, checked over the whole printed schema (schema.graphql;
 * test/schema.test.ts keeps it equal to the live schema): connections named `<Type>Connection` with
 * `totalCount`, `delete*` returning the deleted `ID!`, `update<Thing>(id:, input: Update<Thing>Input!)`,
 * no `*Patch` inputs, lookups by id non-null, enum values UPPER_CASE. Each rule is also run on a small
 * schema that breaks it, so a check that could not fail would show here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';

/** Relay's `node(id:)` is nullable by its specification: an id of another tenant is null there. */
const NULLABLE_BY_SPEC = new Set(['node']);

const isConnection = (t: GraphQLObjectType) => 'edges' in t.getFields() && 'pageInfo' in t.getFields();

/** Every way the schema breaks the convention, one line each (empty when it follows it). */
function conventionViolations(schema: GraphQLSchema): string[] {
  const out: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (isInputObjectType(type) && type.name.endsWith('Patch'))
      out.push(`input ${type.name}: updates take Update…Input, not …Patch`);
    if (isEnumType(type)) {
      for (const v of type.getValues())
        if (v.name !== v.name.toUpperCase()) out.push(`enum ${type.name}.${v.name}: values are UPPER_CASE`);
    }
    if (!isObjectType(type)) continue;
    if (isConnection(type)) {
      const edge = getNamedType(type.getFields().edges!.type) as GraphQLObjectType;
      const node = isObjectType(edge) ? edge.getFields().node : undefined;
      const nodeName = node ? getNamedType(node.type).name : '?';
      if (type.name !== `${nodeName}Connection`)
        out.push(`connection ${type.name}: name it ${nodeName}Connection (after its node type)`);
      if (!('totalCount' in type.getFields())) out.push(`connection ${type.name}: has no totalCount`);
    } else if (type.name.endsWith('Connection')) {
      out.push(`type ${type.name}: named …Connection but has no edges and pageInfo`);
    }
  }

  const mutations = schema.getMutationType()?.getFields() ?? {};
  for (const [name, field] of Object.entries(mutations)) {
    // A deprecated alias keeps the shape it had (docs/api-evolution.md) until it is removed.
    if (field.deprecationReason) continue;
    if (name.startsWith('delete') && String(field.type) !== 'ID!')
      out.push(`Mutation.${name}: returns ${String(field.type)}, not the deleted ID!`);
    const thing = /^update([A-Z]\w*)$/.exec(name)?.[1];
    const input = field.args.find((a) => a.name === 'input');
    if (thing && field.args.some((a) => a.name === 'id') && String(input?.type) !== `Update${thing}Input!`) {
      out.push(`Mutation.${name}: takes input: ${String(input?.type)}, not Update${thing}Input!`);
    }
  }

  const queries = schema.getQueryType()?.getFields() ?? {};
  for (const [name, field] of Object.entries(queries) as Array<[string, GraphQLField<unknown, unknown>]>) {
    const byId = field.args.some((a) => a.name === 'id' && String(a.type) === 'ID!');
    if (!byId || NULLABLE_BY_SPEC.has(name)) continue;
    const listed = isListType(isNonNullType(field.type) ? field.type.ofType : field.type);
    if (!listed && !isNonNullType(field.type))
      out.push(`Query.${name}: a lookup by id is non-null (NOT_FOUND for an id the caller may not see)`);
  }
  return out.sort();
}

describe('the GraphQL convention', () => {
  it('holds for the whole schema', () => {
    const schema = buildSchema(readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8'));
    expect(conventionViolations(schema)).toEqual([]);
  });

  it('reports each kind of violation', () => {
    const broken = buildSchema(`
      type PageInfo { hasNextPage: Boolean! endCursor: String }
      type Thing { id: ID! }
      type ThingEdge { node: Thing! cursor: String! }
      type QueryThingsConnection { edges: [ThingEdge!]! pageInfo: PageInfo! }
      type OtherConnection { items: [Thing!]! }
      enum Colour { red BLUE }
      input ThingPatch { name: String }
      input ThingInput { name: String }
      type Query {
        thing(id: ID!): Thing
        things: QueryThingsConnection!
        node(id: ID!): Thing
        other: OtherConnection
      }
      type Mutation {
        deleteThing(id: ID!): Boolean!
        deleteOldThing: Boolean! @deprecated(reason: "Use clearThing; removal after 2027-03-01")
        removeThing(id: ID!): ID!
        updateThing(id: ID!, input: ThingInput!): Thing!
        patchThing(id: ID!, input: ThingPatch!): Thing!
      }
    `);
    expect(conventionViolations(broken)).toEqual(
      [
        'connection QueryThingsConnection: name it ThingConnection (after its node type)',
        'connection QueryThingsConnection: has no totalCount',
        'type OtherConnection: named …Connection but has no edges and pageInfo',
        'enum Colour.red: values are UPPER_CASE',
        'input ThingPatch: updates take Update…Input, not …Patch',
        'Mutation.deleteThing: returns Boolean!, not the deleted ID!',
        'Mutation.updateThing: takes input: ThingInput!, not UpdateThingInput!',
        'Query.thing: a lookup by id is non-null (NOT_FOUND for an id the caller may not see)',
      ].sort(),
    );
  });
});
