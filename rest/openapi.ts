/**
 * Loads the REST contract: rest/openapi.yaml plus one fragment per area in rest/openapi/*.yaml
 * (each may add `paths`, `webhooks`, `tags` and `components`). The merged document is what /openapi.json serves
 * and what express-openapi-validator checks requests against.
 */
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { PROJECT_ROOT } from '../src/project-root.js';

const here = path.join(PROJECT_ROOT, 'rest');

type Doc = Record<string, any>;

function mergeInto(target: Doc, fragment: Doc, file: string): void {
  for (const [p, item] of Object.entries(fragment.paths ?? {})) {
    if (target.paths[p]) {
      for (const m of Object.keys(item as object)) {
        if (target.paths[p][m]) throw new Error(`${file}: ${m.toUpperCase()} ${p} is already defined`);
      }
      Object.assign(target.paths[p], item);
    } else target.paths[p] = item;
  }
  for (const [section, entries] of Object.entries(fragment.components ?? {})) {
    target.components[section] ??= {};
    for (const [name, value] of Object.entries(entries as object)) {
      if (target.components[section][name]) throw new Error(`${file}: components.${section}.${name} is already defined`);
      target.components[section][name] = value;
    }
  }
  for (const [name, item] of Object.entries(fragment.webhooks ?? {})) {
    target.webhooks ??= {};
    if (target.webhooks[name]) throw new Error(`${file}: webhooks.${name} is already defined`);
    target.webhooks[name] = item;
  }
  target.tags = [...(target.tags ?? []), ...(fragment.tags ?? [])];
}

let cached: Doc | undefined;

/** The merged OpenAPI 3.1 document (a fresh deep copy each call). */
export function loadOpenApi(): Doc {
  if (!cached) {
    const doc = YAML.parse(fs.readFileSync(path.join(here, 'openapi.yaml'), 'utf8')) as Doc;
    const dir = path.join(here, 'openapi');
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort() : [];
    for (const f of files) mergeInto(doc, YAML.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Doc, f);
    cached = doc;
  }
  return structuredClone(cached);
}
