/**
 * The console's first load and its typing (issue 25). The build (Vite's manifest of console/dist) has a
 * chunk per page, and what the browser downloads before the first page shows (the entry chunk and
 * every chunk it imports statically; after sign-in, the timeline's chunk too) stays under half of the
 * 416 KB single bundle the console once was. And every result the pages render is typed from its
 * `graphql()` document: no untyped `gql` tag, no hand-written interface standing in for a schema type,
 * no `unknown` result, and each fragment is read by the component that declares it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildConsole, consoleStale, CONSOLE_DIST_DIR, CONSOLE_SOURCE_DIR } from '../src/server/console.js';
import { handTyped } from './helpers/console-typing.js';

/** Half of the one 416 KB chunk of the console before pages were split and React gave way to Preact. */
const FIRST_LOAD_LIMIT = 208_000;
const MANIFEST = path.join(CONSOLE_DIST_DIR, '.vite', 'manifest.json');
const PAGES_DIR = path.join(CONSOLE_SOURCE_DIR, 'src', 'pages');

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

let manifest: Manifest;

beforeAll(async () => {
  // A console/dist built before the manifest was configured is rebuilt too.
  if (consoleStale() || !fs.existsSync(MANIFEST)) await buildConsole();
  manifest = JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as Manifest;
}, 300_000);

/** A chunk's key and every chunk it imports statically (what the browser fetches with it), transitively. */
function staticClosure(key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) staticClosure(dep, seen);
  return seen;
}

const bytes = (keys: Iterable<string>) =>
  [...keys].reduce((n, k) => n + fs.statSync(path.join(CONSOLE_DIST_DIR, manifest[k].file)).size, 0);
const entryKey = () => {
  const entries = Object.entries(manifest).filter(([, c]) => c.isEntry);
  expect(entries).toHaveLength(1);
  return entries[0][0];
};

describe('the console bundle', () => {
  it('has a chunk per page, fetched when its route is first shown', () => {
    const js = Object.values(manifest).filter((c) => c.file.endsWith('.js'));
    expect(js.length).toBeGreaterThan(1);
    const entry = entryKey();
    const lazy = manifest[entry].dynamicImports ?? [];
    const first = staticClosure(entry);
    for (const page of ['Timeline', 'Reports', 'Billing', 'Gpu', 'Dashboards', 'Integrations', 'Clusters', 'Copilot']) {
      const key = `src/pages/${page}.tsx`;
      expect(lazy, page).toContain(key);
      expect(first.has(key), `${page} is in the first load`).toBe(false);
    }
  });

  it(`downloads under ${FIRST_LOAD_LIMIT / 1000} KB of JS for the sign-in page, and for the timeline after sign-in`, () => {
    const entry = entryKey();
    const signIn = bytes(staticClosure(entry));
    const timeline = bytes(staticClosure('src/pages/Timeline.tsx', staticClosure(entry)));
    console.log(
      `first load: ${signIn} bytes (sign-in), ${timeline} bytes (timeline after sign-in); all JS ${bytes(Object.keys(manifest).filter((k) => manifest[k].file.endsWith('.js')))} bytes`,
    );
    expect(signIn).toBeLessThan(FIRST_LOAD_LIMIT);
    expect(timeline).toBeLessThan(FIRST_LOAD_LIMIT);
  });
});

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(d.name) ? [p] : [];
  });
}

describe('the console pages are typed from their documents', () => {
  it('finds no hand-written result types in console/src/pages', () => {
    const problems = sourceFiles(PAGES_DIR).flatMap((f) =>
      handTyped(fs.readFileSync(f, 'utf8')).map((p) => `${path.relative(process.cwd(), f)}: ${p}`),
    );
    expect(problems).toEqual([]);
  });

  it('declares fragments next to the components that read them', () => {
    const withFragments = sourceFiles(PAGES_DIR).filter((f) =>
      /\bfragment\s+Console\w+\s+on\s+\w+/.test(fs.readFileSync(f, 'utf8')),
    );
    expect(withFragments.length).toBeGreaterThanOrEqual(10);
  });

  it('fails on the hand-typed shapes the pages had (the check can fail)', () => {
    expect(
      handTyped(
        "import { gql, useQuery } from 'urql';\nconst Q = gql<{ clusters: Cluster[] }>`query ConsoleClusters { clusters { id } }`;",
      ),
    ).toEqual(expect.arrayContaining(['gql tag (untyped document)']));
    expect(
      handTyped('const D = gql<unknown, { id: string }>`mutation X($id: ID!) { deleteMeter(id: $id) { id } }`;'),
    ).toContain('gql tag (untyped document)');
    expect(handTyped('interface Sku {\n  id: string;\n}')).toEqual(['Sku (copies a schema type)']);
    expect(handTyped('interface Cluster { id: string }')).toEqual(['Cluster (copies a schema type)']);
    expect(handTyped('export interface ReportResultData { rows: unknown[] }')).toEqual([
      'ReportResultData (a result type by hand)',
    ]);
    expect(handTyped('type Fleet = { gpus: number };')).toEqual(['Fleet (copies a schema type)']);
    expect(handTyped('const r = x as unknown as { a: string };')).toEqual(['as unknown']);
    expect(handTyped('const [r] = useQuery<{ a: string }>({ query });')).toEqual([
      'useQuery<…> (result typed by hand)',
    ]);
    expect(handTyped('const F = graphql(`fragment ConsoleX on Gpu { id }`);')).toEqual([
      'a fragment declared and never read',
    ]);
    // What stays allowed: types derived from a document, UI state, and the fragment read where declared.
    expect(
      handTyped(
        "type Panel = ResultOf<typeof Q>['dashboards'][number];\ninterface FilterRow { field: string }\nconst F = graphql(`fragment ConsoleX on Gpu { id }`);\nreadFragment(F, x);",
      ),
    ).toEqual([]);
  });
});
