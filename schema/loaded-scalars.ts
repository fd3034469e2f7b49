/**
 * A Pothos plugin for prisma objects in select mode: reading a scalar column of a row costs a property
 * read, whether the type loads the column always or only when a query asks for it.
 *
 * plugin-prisma wraps every field that selects something with a check per row (the row's loader
 * mapping, looked up by its response path) so that it can re-read a row that was loaded without it.
 * For the dashboard query that check cost 1,750 path lookups (10% of its CPU, bench:graph). Here:
 *
 * - a field that only reads scalars the type-level `select` always loads gives up its field-level
 *   selection: where the type's other fields are loaded, so are these (a plain read, as before);
 * - an exposed column the type does not always load (`t.exposeString('source')`) keeps its field-level
 *   selection, so a query that asks for it loads it and one that does not leaves it out, but reads it
 *   straight off the row when the row has the property (Prisma leaves unselected columns out of a row, and
 *   gives selected ones, null included), and only otherwise goes through plugin-prisma's check and
 *   re-read (a row some resolver loaded with another selection).
 *
 * So a type-level `select` can be as small as what resolvers that are not plain column reads need
 * (`id`, `status` for `allowedActions`), and a list loads the columns its query names and no others.
 *
 * Registered before PrismaPlugin in the builder's list: Pothos applies field-config hooks from the
 * last plugin to the first, so this one sees the selection plugin-prisma attached, and wraps the
 * resolver plugin-prisma wrapped.
 */
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import type { GraphQLFieldResolver } from 'graphql';

export const LOADED_SCALARS_PLUGIN = 'loadedScalars' as const;

type Selection = Record<string, unknown>;

/** Whether `select` only names scalars (value `true`) that the type-level `typeSelect` loads too. */
function coveredBy(select: unknown, typeSelect: unknown): boolean {
  if (!select || typeof select !== 'object' || !typeSelect || typeof typeSelect !== 'object') return false;
  const entries = Object.entries(select as Selection);
  return (
    entries.length > 0 && entries.every(([key, value]) => value === true && (typeSelect as Selection)[key] === true)
  );
}

/** The column an exposed field reads when its selection is exactly that column (`{ source: true }`), else undefined. */
function exposedColumn(fieldConfig: PothosOutputFieldConfig<SchemaTypes>, select: unknown): string | undefined {
  const column = fieldConfig.extensions?.pothosExposedField;
  if (typeof column !== 'string' || !select || typeof select !== 'object') return undefined;
  const keys = Object.keys(select as Selection);
  return keys.length === 1 && keys[0] === column && (select as Selection)[column] === true ? column : undefined;
}

export class LoadedScalarsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>): PothosOutputFieldConfig<Types> {
    if (fieldConfig.kind !== 'PrismaObject') return fieldConfig;
    const select = fieldConfig.extensions?.pothosPrismaSelect;
    if (!select || typeof select === 'function') return fieldConfig;
    const typeSelect = this.buildCache.getTypeConfig(fieldConfig.parentType).extensions?.pothosPrismaSelect;
    if (!coveredBy(select, typeSelect)) {
      const column = exposedColumn(fieldConfig as PothosOutputFieldConfig<SchemaTypes>, select);
      return column
        ? { ...fieldConfig, extensions: { ...fieldConfig.extensions, loadedScalarColumn: column } }
        : fieldConfig;
    }
    const { pothosPrismaSelect: _dropped, ...extensions } = fieldConfig.extensions!;
    return { ...fieldConfig, extensions };
  }

  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> {
    const column = fieldConfig.extensions?.loadedScalarColumn;
    if (typeof column !== 'string') return resolver;
    return (parent, args, context, info) =>
      parent !== null && typeof parent === 'object' && column in parent
        ? (parent as Selection)[column]
        : resolver(parent, args, context, info);
  }
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  export namespace PothosSchemaTypes {
    interface Plugins<Types extends SchemaTypes> {
      loadedScalars: LoadedScalarsPlugin<Types>;
    }
  }
}

SchemaBuilder.registerPlugin(LOADED_SCALARS_PLUGIN, LoadedScalarsPlugin);
