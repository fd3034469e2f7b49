/**
 * A provider's config form, built from its JSON schema: one input per property, secrets as password
 * inputs, a list of string inputs (URLs) for string arrays (dcgm `targets`), JSON text for other
 * objects and arrays. Values are kept as text; `configOf` turns them into the config object.
 */
import { SelectField, TextField } from './Field';
import type { Json } from '../lib/graphql';

export interface JsonSchemaProp {
  type?: string;
  enum?: string[];
  description?: string;
  default?: unknown;
  format?: string;
  items?: { type?: string; format?: string };
  'x-secret'?: boolean;
}
export interface ConfigSchema {
  properties?: Record<string, JsonSchemaProp>;
  required?: string[];
}
interface ProviderForm {
  /** The provider's `configSchema` (a JSON scalar), read by `schemaOf`. */
  configSchema: Json;
  secretFields: readonly string[];
}

const isObject = (v: Json): v is Record<string, Json> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The parts of a JSON schema the form uses; what is not an object schema reads as no properties. */
export function schemaOf(v: Json): ConfigSchema {
  if (!isObject(v)) return {};
  const props = isObject(v.properties)
    ? Object.fromEntries(Object.entries(v.properties).filter(([, p]) => isObject(p)))
    : {};
  return {
    properties: props as Record<string, JsonSchemaProp>,
    required: Array.isArray(v.required) ? v.required.filter((x): x is string => typeof x === 'string') : [],
  };
}

/** Arrays of plain strings get one input per item (kept as lines of text). */
const isStringList = (p: JsonSchemaProp) => p.type === 'array' && p.items?.type === 'string';

function StringList({
  label,
  value,
  onChange,
  hint,
  url,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  hint?: string;
  url: boolean;
}) {
  const items = value === '' ? [''] : value.split('\n');
  const set = (next: string[]) => onChange(next.join('\n'));
  return (
    <fieldset className="kv-rows" aria-label={label}>
      <legend>{label}</legend>
      {items.map((item, i) => (
        <div className="kv-row" key={i}>
          <TextField
            label={`${label} ${i + 1}`}
            type={url ? 'url' : 'text'}
            value={item}
            onChange={(v) => set(items.map((x, j) => (j === i ? v : x)))}
            placeholder={url ? 'http://gpu-node-1:9400/metrics' : undefined}
          />
          {items.length > 1 && (
            <button
              type="button"
              className="plain"
              aria-label={`Remove item ${i + 1} of ${label}`}
              onClick={() => set(items.filter((_, j) => j !== i))}
            >
              Remove
            </button>
          )}
        </div>
      ))}
      <div className="row-actions">
        <button type="button" className="plain" onClick={() => set([...items, ''])}>
          Add {url ? 'URL' : 'item'}
        </button>
      </div>
      {hint && <small className="hint">{hint}</small>}
    </fieldset>
  );
}

export function ConfigFields({
  provider,
  values,
  onChange,
}: {
  provider: ProviderForm;
  values: Record<string, string>;
  onChange: (v: Record<string, string>) => void;
}) {
  const schema = schemaOf(provider.configSchema);
  const props = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  return (
    <>
      {Object.entries(props).map(([key, p]) => {
        const label = `${key.replace(/_/g, ' ')}${required.has(key) ? ' (required)' : ''}`;
        const set = (v: string) => onChange({ ...values, [key]: v });
        const value = values[key] ?? '';
        if (p.enum)
          return (
            <SelectField
              key={key}
              label={label}
              value={value}
              onChange={set}
              options={[
                { value: '', label: p.default !== undefined ? `default (${String(p.default)})` : '—' },
                ...p.enum.map((v) => ({ value: v, label: v })),
              ]}
              hint={p.description}
            />
          );
        if (p.type === 'boolean')
          return (
            <SelectField
              key={key}
              label={label}
              value={value}
              onChange={set}
              options={[
                { value: '', label: 'default' },
                { value: 'true', label: 'yes' },
                { value: 'false', label: 'no' },
              ]}
              hint={p.description}
            />
          );
        if (isStringList(p))
          return (
            <StringList
              key={key}
              label={label}
              value={value}
              onChange={set}
              hint={p.description}
              url={p.items?.format === 'uri'}
            />
          );
        const isSecret = p['x-secret'] || provider.secretFields.includes(key);
        const isJson = p.type === 'object' || p.type === 'array';
        return (
          <TextField
            key={key}
            label={label}
            value={value}
            onChange={set}
            type={
              isSecret
                ? 'password'
                : p.type === 'integer' || p.type === 'number'
                  ? 'number'
                  : p.format === 'uri'
                    ? 'url'
                    : 'text'
            }
            multiline={isJson}
            placeholder={
              isJson ? JSON.stringify(p.default ?? {}) : p.default !== undefined ? String(p.default) : undefined
            }
            hint={p.description}
            autoComplete={isSecret ? 'new-password' : undefined}
          />
        );
      })}
    </>
  );
}

/** Form values → the config object (empty fields left out so the provider's defaults apply). */
export function configOf(provider: ProviderForm, values: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, p] of Object.entries(schemaOf(provider.configSchema).properties ?? {})) {
    const v = values[key];
    if (v === undefined || v.trim() === '') continue;
    if (isStringList(p))
      out[key] = v
        .split('\n')
        .map((s) => s.trim())
        .filter(Boolean);
    else if (p.type === 'object' || p.type === 'array') {
      try {
        out[key] = JSON.parse(v);
      } catch {
        throw new Error(`${key}: not valid JSON`);
      }
    } else if (p.type === 'integer' || p.type === 'number') out[key] = Number(v);
    else if (p.type === 'boolean') out[key] = v === 'true';
    else out[key] = v;
  }
  return out;
}
