/**
 * Input values between their internal form and GraphQL's, walked by their GraphQL input type: the one
 * implementation of the enum case mapping (internal lowercase value ↔ UPPER_CASE name) and of matching
 * a request key to the input field it names (`device_id` → `deviceId`). The REST adapter
 * (rest/translate.ts) maps every route's variables with it; a JSON field that carries an input (a
 * suggested rule's `CreateAlertRuleInput`) is built with it.
 */
import {
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type GraphQLEnumType,
  type GraphQLInputType,
} from 'graphql';

/** `device_id` → `deviceId`: the GraphQL input field a REST body key names. */
export const camelKey = (k: string) => k.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** The GraphQL name of an internal enum value; unknown values pass through (GraphQL reports them). */
function enumName(type: GraphQLEnumType, value: unknown): unknown {
  return type.getValues().find((v) => v.value === value)?.name ?? value;
}

/** The internal value of a GraphQL enum name. */
export function enumValue(type: GraphQLEnumType, name: unknown): unknown {
  return typeof name === 'string' ? (type.getValue(name)?.value ?? name) : name;
}

/** An internal input value (lowercase enum values, snake_case or camelCase keys) as GraphQL takes it. */
export function toGraphQLInput(type: GraphQLInputType, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (isNonNullType(type)) return toGraphQLInput(type.ofType, value);
  if (isListType(type))
    return Array.isArray(value) ? value.map((v) => toGraphQLInput(type.ofType, v)) : toGraphQLInput(type.ofType, value);
  if (isEnumType(type)) return enumName(type, value);
  if (isInputObjectType(type) && typeof value === 'object' && !Array.isArray(value)) {
    const fields = type.getFields();
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => {
        const field = fields[k] ?? fields[camelKey(k)];
        return field ? [field.name, toGraphQLInput(field.type, v)] : [k, v];
      }),
    );
  }
  return value;
}

/** A GraphQL input value with its enum names turned back into the internal values (keys unchanged). */
export function fromGraphQLInput(type: GraphQLInputType, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (isNonNullType(type)) return fromGraphQLInput(type.ofType, value);
  if (isListType(type))
    return Array.isArray(value)
      ? value.map((v) => fromGraphQLInput(type.ofType, v))
      : fromGraphQLInput(type.ofType, value);
  if (isEnumType(type)) return enumValue(type, value);
  if (isInputObjectType(type) && typeof value === 'object' && !Array.isArray(value)) {
    const fields = type.getFields();
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, fields[k] ? fromGraphQLInput(fields[k].type, v) : v]),
    );
  }
  return value;
}
