/**
 * Loads the REST contract: rest/openapi.yaml plus one fragment per area in rest/openapi/*.yaml
 * (each may add `paths`, `webhooks`, `tags` and `components`). The merged document is what /openapi.json serves
 * and what express-openapi-validator checks requests against.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { PROJECT_ROOT } from '../src/project-root.js';
import { serviceVersion } from '../src/version.js';
import { finishContract } from './contract-finish.js';

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
      if (target.components[section][name])
        throw new Error(`${file}: components.${section}.${name} is already defined`);
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

/** Merged documents by a hash of the YAML they come from: JSON reads in a few ms, the YAML in ~250 ms. */
const CACHE_DIR = path.join(PROJECT_ROOT, 'node_modules', '.cache', 'ops-service');

function mergeYaml(files: Array<{ name: string; text: string }>): Doc {
  const [main, ...fragments] = files;
  const doc = YAML.parse(main.text) as Doc;
  for (const f of fragments) mergeInto(doc, YAML.parse(f.text) as Doc, f.name);
  return doc;
}

/** The merged document, from the cache when the YAML is unchanged (a missing or unwritable cache only costs time). */
function readContract(): Doc {
  const dir = path.join(here, 'openapi');
  const names = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.yaml'))
        .sort()
    : [];
  const files = [
    { name: 'openapi.yaml', text: fs.readFileSync(path.join(here, 'openapi.yaml'), 'utf8') },
    ...names.map((name) => ({ name, text: fs.readFileSync(path.join(dir, name), 'utf8') })),
  ];
  const hash = createHash('sha256');
  for (const f of files) hash.update(`${f.name}\0${f.text}\0`);
  const cacheFile = path.join(CACHE_DIR, `openapi-${hash.digest('hex').slice(0, 32)}.json`);
  try {
    return JSON.parse(fs.readFileSync(cacheFile, 'utf8')) as Doc;
  } catch {
    const doc = mergeYaml(files);
    try {
      fs.mkdirSync(CACHE_DIR, { recursive: true });
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(doc));
      fs.renameSync(tmp, cacheFile);
    } catch {
      // read-only install: parse the YAML each start
    }
    return doc;
  }
}

/** The merged OpenAPI 3.1 document (a fresh deep copy each call); `info.version` is the release's. */
export function loadOpenApi(): Doc {
  if (!cached) {
    cached = finishContract(readContract());
    cached.info = { ...cached.info, version: serviceVersion() };
  }
  return structuredClone(cached);
}
