/**
 * Breaking changes between two GraphQL schemas, found by `@graphql-inspector/core`'s diff, each with
 * whether the old schema had deprecated what changed (a field, an argument, an input field or an enum
 * value; a removed type counts as deprecated when every field, argument and input field of the old
 * schema that used it was) and the removal date its reason gives (`… removal after 2027-03-01`).
 */
import { diff, CriticalityLevel, type Change } from '@graphql-inspector/core';
import {
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  type GraphQLSchema,
} from 'graphql';

export interface GraphQLChange {
  /** `Query.webhook`, `Mutation.updateThing.input`, `AlertStatus.OPEN`, `TriageCheck`. */
  path: string;
  type: string;
  message: string;
  /** What the old schema's deprecation said, when it had deprecated what changed. */
  deprecationReason?: string;
}

/** The deprecation reason of the element at `path` in `schema` (field, argument, input field, enum value). */
function deprecationAt(schema: GraphQLSchema, path: string): string | undefined {
  const [typeName, member, arg] = path.split('.');
  const type = schema.getType(typeName);
  if (!type || !member) return type ? removedTypeDeprecation(schema, typeName) : undefined;
  if (isEnumType(type)) return type.getValue(member)?.deprecationReason ?? undefined;
  if (isInputObjectType(type)) return type.getFields()[member]?.deprecationReason ?? undefined;
  if (!isObjectType(type) && !isInterfaceType(type)) return undefined;
  const field = type.getFields()[member];
  if (!field) return undefined;
  if (field.deprecationReason) return field.deprecationReason;
  return arg ? (field.args.find((a) => a.name === arg)?.deprecationReason ?? undefined) : undefined;
}

/**
 * A type can't be deprecated itself: it was, in effect, when every use of it was. The reason returned is
 * the one with the latest removal date, so the type goes no sooner than the last field that used it.
 */
function removedTypeDeprecation(schema: GraphQLSchema, typeName: string): string | undefined {
  const reasons: Array<string | null | undefined> = [];
  for (const t of Object.values(schema.getTypeMap())) {
    if (t.name.startsWith('__') || t.name === typeName) continue;
    if (isObjectType(t) || isInterfaceType(t)) {
      for (const f of Object.values(t.getFields())) {
        if (getNamedType(f.type).name === typeName) reasons.push(f.deprecationReason);
        for (const a of f.args)
          if (getNamedType(a.type).name === typeName) reasons.push(f.deprecationReason ?? a.deprecationReason);
      }
    } else if (isInputObjectType(t)) {
      for (const f of Object.values(t.getFields()))
        if (getNamedType(f.type).name === typeName) reasons.push(f.deprecationReason);
    }
  }
  if (!reasons.length || reasons.some((r) => !r)) return undefined;
  return (reasons as string[]).sort((a, b) => (removalDate(a) ?? '').localeCompare(removalDate(b) ?? '')).at(-1);
}

/** The `removal after YYYY-MM-DD` date of a deprecation reason, if it names one. */
export function removalDate(reason: string | undefined): string | undefined {
  return /removal after (\d{4}-\d{2}-\d{2})/i.exec(reason ?? '')?.[1];
}

/** Every breaking change from `oldSdl` to `newSdl`, with the old schema's deprecation of what changed. */
export async function graphqlBreakingChanges(oldSdl: string, newSdl: string): Promise<GraphQLChange[]> {
  const [oldSchema, newSchema] = [buildSchema(oldSdl), buildSchema(newSdl)];
  const changes: Change[] = await diff(oldSchema, newSchema);
  return changes
    .filter((c) => c.criticality.level === CriticalityLevel.Breaking)
    .map((c) => {
      const path = c.path ?? '';
      return { path, type: String(c.type), message: c.message, deprecationReason: deprecationAt(oldSchema, path) };
    });
}

/**
 * Deprecations in `sdl` whose reason names no removal date (the policy of docs/api-evolution.md asks
 * for `… removal after <date>`), one line each.
 */
export function deprecationsWithoutDate(sdl: string): string[] {
  const out: string[] = [];
  const schema = buildSchema(sdl);
  const check = (where: string, reason: string | null | undefined) => {
    if (reason && !removalDate(reason)) out.push(`${where}: "${reason}" names no "removal after <date>"`);
  };
  for (const t of Object.values(schema.getTypeMap())) {
    if (t.name.startsWith('__')) continue;
    if (isEnumType(t)) for (const v of t.getValues()) check(`${t.name}.${v.name}`, v.deprecationReason);
    if (isInputObjectType(t))
      for (const f of Object.values(t.getFields())) check(`${t.name}.${f.name}`, f.deprecationReason);
    if (isObjectType(t) || isInterfaceType(t))
      for (const f of Object.values(t.getFields())) {
        check(`${t.name}.${f.name}`, f.deprecationReason);
        for (const a of f.args) check(`${t.name}.${f.name}.${a.name}`, a.deprecationReason);
      }
  }
  return out;
}
