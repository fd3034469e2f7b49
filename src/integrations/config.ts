/**
 * Provider config: validation against the provider's JSON Schema (every problem named by field),
 * splitting secret fields from the rest, sealing them with the runtime's SecretBox, masking them for
 * display, and merging a tenant's provider defaults under an integration's own config.
 */
import type { SecretBox } from '../secrets.js';
import type { FieldProblem } from '../errors.js';
import type { ConfigFieldSchema, ConfigSchema, Provider } from './types.js';
import { secretFields } from './registry.js';
import { headerValueProblem } from '../net/header-value.js';

/** What a secret field shows instead of its value. Sending it back on an update keeps the stored secret. */
export const MASK = '********';

/** Problems of one string value against its field (length, enum, `uri` format, header-safe). */
function stringProblems(
  v: unknown,
  f: Pick<ConfigFieldSchema, 'minLength' | 'maxLength' | 'enum' | 'format' | 'x-header'>,
  loc: string[],
): FieldProblem[] {
  if (typeof v !== 'string') return [{ loc, msg: 'must be a string' }];
  const problems: FieldProblem[] = [];
  // The mask keeps the stored secret, which was checked when it was set.
  const header = f['x-header'] && v !== MASK ? headerValueProblem(v) : null;
  if (header) problems.push({ loc, msg: header });
  if (f.minLength !== undefined && v.length < f.minLength)
    problems.push({ loc, msg: `must be at least ${f.minLength} characters` });
  if (f.maxLength !== undefined && v.length > f.maxLength)
    problems.push({ loc, msg: `must be at most ${f.maxLength} characters` });
  if (f.enum && !f.enum.includes(v)) problems.push({ loc, msg: `must be one of ${f.enum.join(', ')}` });
  if (f.format === 'uri') {
    let u: URL | null = null;
    try {
      u = new URL(v);
    } catch {
      /* reported below */
    }
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:'))
      problems.push({ loc, msg: 'must be an absolute http or https URL' });
    else if (u.username || u.password)
      problems.push({ loc, msg: "must not contain credentials; use the provider's secret fields" });
  }
  return problems;
}

/** Every problem of `config` against `schema`, with `loc` = `at` + field name. */
export function validateConfig(
  config: unknown,
  schema: ConfigSchema,
  at: string[],
  opts: { requireAll?: boolean } = {},
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (typeof config !== 'object' || config === null || Array.isArray(config))
    return [{ loc: at, msg: 'must be a JSON object' }];
  const c = config as Record<string, unknown>;
  for (const key of Object.keys(c)) {
    if (!Object.hasOwn(schema.properties, key))
      problems.push({
        loc: [...at, key],
        msg: `is not a field of this provider (fields: ${Object.keys(schema.properties).join(', ')})`,
      });
  }
  if (opts.requireAll !== false) {
    for (const key of schema.required ?? []) {
      if (c[key] === undefined || c[key] === null || c[key] === '')
        problems.push({ loc: [...at, key], msg: 'is required' });
    }
  }
  for (const [key, f] of Object.entries(schema.properties)) {
    const v = c[key];
    if (v === undefined || v === null) continue;
    const loc = [...at, key];
    switch (f.type) {
      case 'string':
        problems.push(...stringProblems(v, f, loc));
        break;
      case 'array':
        if (!Array.isArray(v)) problems.push({ loc, msg: 'must be a list' });
        else {
          if (f.minItems !== undefined && v.length < f.minItems)
            problems.push({ loc, msg: `must have at least ${f.minItems} item(s)` });
          if (f.maxItems !== undefined && v.length > f.maxItems)
            problems.push({ loc, msg: `must have at most ${f.maxItems} items` });
          v.slice(0, f.maxItems ?? v.length).forEach((x, i) =>
            problems.push(...stringProblems(x, { type: 'string', ...f.items }, [...loc, String(i)])),
          );
        }
        break;
      case 'integer':
        if (typeof v !== 'number' || !Number.isInteger(v)) problems.push({ loc, msg: 'must be a whole number' });
        else if ((f.minimum !== undefined && v < f.minimum) || (f.maximum !== undefined && v > f.maximum))
          problems.push({ loc, msg: `must be between ${f.minimum ?? '-∞'} and ${f.maximum ?? '∞'}` });
        break;
      case 'boolean':
        if (typeof v !== 'boolean') problems.push({ loc, msg: 'must be true or false' });
        break;
      case 'object':
        if (typeof v !== 'object' || Array.isArray(v)) problems.push({ loc, msg: 'must be an object' });
        else {
          for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
            if (typeof x !== 'string') problems.push({ loc: [...loc, k], msg: 'must be a string' });
            else if (f.additionalProperties?.maxLength !== undefined && x.length > f.additionalProperties.maxLength)
              problems.push({
                loc: [...loc, k],
                msg: `must be at most ${f.additionalProperties.maxLength} characters`,
              });
          }
        }
        break;
    }
  }
  return problems;
}

/** Secret and plain fields of a config, apart. */
export function splitSecrets(
  p: Provider,
  config: Record<string, unknown>,
): { plain: Record<string, unknown>; secrets: Record<string, string> } {
  const names = new Set(secretFields(p));
  const plain: Record<string, unknown> = {};
  const secrets: Record<string, string> = {};
  for (const [k, v] of Object.entries(config)) {
    // Only the provider's known fields are kept (validation already refused the others).
    if (v === undefined || v === null || !Object.hasOwn(p.configSchema.properties, k)) continue;
    if (names.has(k)) secrets[k] = String(v);
    else plain[k] = v;
  }
  return { plain, secrets };
}

/** The sealed JSON of the secret fields, or null when there are none. */
export function sealSecrets(box: SecretBox, secrets: Record<string, string>): string | null {
  return Object.keys(secrets).length ? box.seal(JSON.stringify(secrets)) : null;
}

export function openSecrets(box: SecretBox, sealed: string | null | undefined): Record<string, string> {
  return sealed ? (JSON.parse(box.open(sealed)) as Record<string, string>) : {};
}

/** The config as shown to users: plain fields, and each stored secret field as MASK. */
export function maskedConfig(plain: unknown, secretNames: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...((plain ?? {}) as Record<string, unknown>) };
  for (const k of secretNames) out[k] = MASK;
  return out;
}

/** The origins (`scheme://host:port`) a config's URL fields call; a value that is no URL counts as itself. */
export function configOrigins(schema: ConfigSchema, config: Record<string, unknown>): Set<string> {
  return new Set(
    configUrls(schema, config).map(({ url }) => {
      try {
        return new URL(url).origin;
      } catch {
        return url;
      }
    }),
  );
}

/**
 * The config to save from a submitted one and the stored secrets: a secret field sent as MASK keeps its
 * stored value, unless the submitted config calls an origin the stored one did not (a new URL host,
 * scheme or port): then no stored secret follows it, and `cleared` names the stored secret fields the new
 * config does not give again. MASK for a secret that is not kept is dropped, never saved as a value.
 * `defaults` (the tenant's provider config) fill URL fields either side leaves out.
 */
export function carryOverSecrets(
  schema: ConfigSchema,
  stored: { plain: Record<string, unknown>; secrets: Record<string, string> },
  submitted: Record<string, unknown>,
  defaults: Record<string, unknown> = {},
): { config: Record<string, unknown>; cleared: string[] } {
  const before = configOrigins(schema, { ...defaults, ...stored.plain });
  const after = configOrigins(schema, { ...defaults, ...submitted });
  const moved = [...after].some((o) => !before.has(o));
  const config: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(submitted)) {
    if (v !== MASK) config[k] = v;
    else if (!moved && stored.secrets[k] !== undefined) config[k] = stored.secrets[k];
  }
  const cleared = moved ? Object.keys(stored.secrets).filter((k) => config[k] === undefined || config[k] === null) : [];
  return { config, cleared };
}

/** Fields of the schema whose values are URLs the service will call (a `uri` string or a list of them). */
export function urlFields(schema: ConfigSchema): string[] {
  return Object.entries(schema.properties)
    .filter(([, f]) => f.format === 'uri' || (f.type === 'array' && f.items?.format === 'uri'))
    .map(([k]) => k);
}

/** The URLs a config gives in its URL fields, each with its field path (`[field]` or `[field, index]`). */
export function configUrls(
  schema: ConfigSchema,
  config: Record<string, unknown>,
): Array<{ url: string; loc: string[] }> {
  const out: Array<{ url: string; loc: string[] }> = [];
  for (const field of urlFields(schema)) {
    const v = config[field];
    if (typeof v === 'string') out.push({ url: v, loc: [field] });
    else if (Array.isArray(v))
      v.forEach((x, i) => typeof x === 'string' && out.push({ url: x, loc: [field, String(i)] }));
  }
  return out;
}

/** Config defaults from the schema under the tenant's provider config under the integration's own. */
export function effectiveConfig(
  schema: ConfigSchema,
  tenantDefaults: Record<string, unknown>,
  own: Record<string, unknown>,
): Record<string, unknown> {
  const defaults = Object.fromEntries(
    Object.entries(schema.properties)
      .filter(([, f]) => f.default !== undefined)
      .map(([k, f]) => [k, f.default]),
  );
  return { ...defaults, ...tenantDefaults, ...own };
}
