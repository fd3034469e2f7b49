/**
 * The one REST ↔ GraphQL value translation: request bodies are camelised here (a REST key becomes the
 * input field it names, `device_id` → `deviceId`, from the operation's input types, so values of JSON
 * fields such as labels and payloads keep their keys; a body passed on as the operation's arguments,
 * `{ ...req.body }`, names its variables the same way, `change_types` → `$changeTypes`), and enum
 * values are mapped here.
 *
 * Enums: the one place REST enum values are mapped. GraphQL enum values are UPPER_CASE names (`CRITICAL`,
 * `IN_SYNC`) over the lowercase values services and the database use (schema/builder.ts
 * upperCaseValues); REST keeps docs/spec.md's lowercase values, which ARE those internal values. So a
 * route's variables are turned from internal values into enum names before execution, and every enum
 * in its result back into internal values before its presenter runs, both from the operation's types:
 * no route or presenter spells an enum value.
 */
import {
  getNamedType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isInterfaceType,
  isInputType,
  typeFromAST,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type DocumentNode,
  type GraphQLCompositeType,
} from 'graphql';
import { camelKey, enumValue, fromGraphQLInput, toGraphQLInput } from '../schema/values.js';

function operationOf(doc: DocumentNode): OperationDefinitionNode {
  return doc.definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition')!;
}

/**
 * A route's variables under the operation's variable names: a request key passed on as an argument
 * names the variable it camelises to (`args_hash` → `$argsHash`); a key the operation declares as it is
 * wins over a renamed one. Keys that name no variable stay (GraphQL ignores them).
 */
export function operationVariableNames(doc: DocumentNode, variables: Record<string, unknown>): Record<string, unknown> {
  const declared = new Set((operationOf(doc).variableDefinitions ?? []).map((d) => d.variable.name.value));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(variables))
    if (!declared.has(k)) out[declared.has(camelKey(k)) ? camelKey(k) : k] = v;
  for (const [k, v] of Object.entries(variables)) if (declared.has(k)) out[k] = v;
  return out;
}

/** REST-side variables (snake_case keys, lowercase enum values) → GraphQL variables (variable and input field names, enum names). */
export function variablesToGraphQL(
  schema: GraphQLSchema,
  doc: DocumentNode,
  variables: Record<string, unknown>,
): Record<string, unknown> {
  const out = operationVariableNames(doc, variables);
  for (const def of operationOf(doc).variableDefinitions ?? []) {
    const name = def.variable.name.value;
    const type = typeFromAST(schema, def.type as never) as GraphQLInputType | undefined;
    if (type && name in out) out[name] = toGraphQLInput(type, out[name]);
  }
  return out;
}

function outputFromGraphQL(
  schema: GraphQLSchema,
  type: GraphQLOutputType,
  selection: SelectionSetNode | undefined,
  value: unknown,
): unknown {
  if (value === null || value === undefined) return value;
  if (isNonNullType(type)) return outputFromGraphQL(schema, type.ofType, selection, value);
  if (isListType(type))
    return Array.isArray(value) ? value.map((v) => outputFromGraphQL(schema, type.ofType, selection, v)) : value;
  if (isEnumType(type)) return enumValue(type, value);
  const named = getNamedType(type);
  if (selection && (isObjectType(named) || isInterfaceType(named)) && typeof value === 'object') {
    return objectFromGraphQL(schema, named, selection, value as Record<string, unknown>);
  }
  return value;
}

function objectFromGraphQL(
  schema: GraphQLSchema,
  parent: GraphQLCompositeType,
  selection: SelectionSetNode,
  value: Record<string, unknown>,
): Record<string, unknown> {
  const out = { ...value };
  for (const sel of selection.selections) {
    if (sel.kind === 'InlineFragment') {
      const cond = sel.typeCondition ? (schema.getType(sel.typeCondition.name.value) as GraphQLCompositeType) : parent;
      Object.assign(out, objectFromGraphQL(schema, cond, sel.selectionSet, out));
      continue;
    }
    if (sel.kind !== 'Field' || !('getFields' in parent)) continue;
    const def = parent.getFields()[sel.name.value];
    const key = sel.alias?.value ?? sel.name.value;
    // A JSON field that carries a GraphQL input (`extensions: { graphqlInput: 'CreateAlertRuleInput' }`).
    const carried = def?.extensions?.graphqlInput;
    const inputType = typeof carried === 'string' ? schema.getType(carried) : undefined;
    if (def && key in out && inputType && isInputType(inputType)) out[key] = fromGraphQLInput(inputType, out[key]);
    else if (def && key in out) out[key] = outputFromGraphQL(schema, def.type, sel.selectionSet, out[key]);
  }
  return out;
}

/** A GraphQL result's `data` with every enum name turned back into its lowercase value. */
export function dataFromGraphQL(
  schema: GraphQLSchema,
  doc: DocumentNode,
  data: Record<string, unknown>,
): Record<string, unknown> {
  const op = operationOf(doc);
  const root =
    op.operation === 'mutation'
      ? schema.getMutationType()
      : op.operation === 'subscription'
        ? schema.getSubscriptionType()
        : schema.getQueryType();
  return root ? objectFromGraphQL(schema, root, op.selectionSet, data) : data;
}
