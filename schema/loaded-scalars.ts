/**
 * A Pothos plugin for prisma objects in select mode: a field that only reads scalars the type's own
 * `select` always loads (`id`, `status`, `receivedAt`, …) resolves as a plain property read.
 *
 * plugin-prisma wraps every field that selects something with a check per row (the row's loader
 * mapping, looked up by its response path) so that it can re-read a row that was loaded without it.
 * For a scalar that is part of the type-level selection the check can never fail where the type's
 * other fields are loaded, yet it cost the dashboard query 1,750 path lookups (10% of its CPU,
 * bench:graph). Those fields give up their field-level selection; fields reading anything else (big
 * JSON or text columns, relations, computed selections) keep it and stay loaded only when asked for.
 *
 * `Alert`, `Event` and `Proposal` use it: their type-level `select` names the columns lists show, so a
 * list loads those and nothing else (labels, payloads, intents only for a query that asks for them).
 *
 * Registered before PrismaPlugin in the builder's list: Pothos applies field-config hooks from the
 * last plugin to the first, so this one sees the selection plugin-prisma attached.
 */
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';

export const LOADED_SCALARS_PLUGIN = 'loadedScalars' as const;

type Selection = Record<string, unknown>;

/** Whether `select` only names scalars (value `true`) that the type-level `typeSelect` loads too. */
function coveredBy(select: unknown, typeSelect: unknown): boolean {
  if (!select || typeof select !== 'object' || !typeSelect || typeof typeSelect !== 'object') return false;
  const entries = Object.entries(select as Selection);
  return entries.length > 0 && entries.every(([key, value]) => value === true && (typeSelect as Selection)[key] === true);
}

export class LoadedScalarsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>): PothosOutputFieldConfig<Types> {
    if (fieldConfig.kind !== 'PrismaObject') return fieldConfig;
    const select = fieldConfig.extensions?.pothosPrismaSelect;
    if (!select || typeof select === 'function') return fieldConfig;
    const typeSelect = this.buildCache.getTypeConfig(fieldConfig.parentType).extensions?.pothosPrismaSelect;
    if (!coveredBy(select, typeSelect)) return fieldConfig;
    const { pothosPrismaSelect: _dropped, ...extensions } = fieldConfig.extensions!;
    return { ...fieldConfig, extensions };
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
