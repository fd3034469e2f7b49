/**
 * The provider registry: providers register themselves by id (providers/index.ts registers the
 * built-in ones). Nothing here knows any provider; adding one never changes this file.
 */
import { NotFound } from '../errors.js';
import type { Provider } from './types.js';

const providers = new Map<string, Provider>();

/** Adds a provider; a second provider with the same id is a programming error. */
export function registerProvider(p: Provider): void {
  if (!/^[a-z][a-z0-9_-]{1,39}$/.test(p.id))
    throw new Error(`Provider id "${p.id}" must be 2-40 lowercase letters, digits, - or _`);
  if (providers.has(p.id)) throw new Error(`Provider "${p.id}" is already registered`);
  providers.set(p.id, p);
}

/** Every registered provider, by id. */
export function listProviders(): Provider[] {
  return [...providers.values()].sort((a, b) => a.id.localeCompare(b.id));
}

export function findProvider(id: string): Provider | undefined {
  return providers.get(id);
}

/** The provider, or a 404 naming the known ones. */
export function getProvider(id: string): Provider {
  const p = providers.get(id);
  if (!p)
    throw new NotFound(
      `Provider "${id}" (known: ${listProviders()
        .map((x) => x.id)
        .join(', ')})`,
    );
  return p;
}

/** Names of the secret fields of a provider's config. */
export function secretFields(p: Provider): string[] {
  return Object.entries(p.configSchema.properties)
    .filter(([, f]) => f['x-secret'])
    .map(([k]) => k);
}
