/**
 * Loops between the areas of src/, from a dependency-cruiser cruise (`depcruise --output-type json`).
 * dependency-cruiser's own `no-circular` rule sees file circles only; rules → webhooks → rules through
 * different files is none, yet it ties two areas into one. `npm run lint:deps` pipes the cruise here and
 * fails on any loop; test/architecture.test.ts runs the same check in `npm test`.
 *
 *   depcruise --config .dependency-cruiser.cjs --output-type json src | tsx scripts/area-loops.ts
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface CruisedModule {
  source: string;
  dependencies: Array<{ resolved: string }>;
}

/**
 * The area a module of src/ belongs to: its folder (`src/rules/evaluate.ts` → `rules`), or, for the
 * shared modules at the top of src/ (`runtime.ts`, `context.ts`, `errors.ts`, ...), the file itself.
 */
function areaOf(source: string): string | null {
  const m = /^src\/([^/]+)\/|^src\/([^/]+)\.ts$/.exec(source);
  if (!m || m[1] === 'generated') return null;
  return m[1] ?? `src/${m[2]}.ts`;
}

/** Every loop between areas (strongly connected components of the area graph), with one import per edge. */
export function areaLoops(modules: CruisedModule[]): string[][] {
  const edges = new Map<string, Map<string, string>>();
  for (const m of modules) {
    const from = areaOf(m.source);
    if (!from) continue;
    for (const d of m.dependencies) {
      const to = areaOf(d.resolved);
      if (!to || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from)!.has(to)) edges.get(from)!.set(to, `${m.source} → ${d.resolved}`);
    }
  }
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1)
        loops.push(
          component.flatMap((a) =>
            [...(edges.get(a) ?? [])].filter(([b]) => component.includes(b)).map(([b, via]) => `${a} → ${b} (${via})`),
          ),
        );
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return loops;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cruise = JSON.parse(readFileSync(0, 'utf8')) as { modules: CruisedModule[] };
  const loops = areaLoops(cruise.modules);
  for (const loop of loops) console.error(`loop between areas:\n  ${loop.join('\n  ')}`);
  if (loops.length) process.exit(1);
  console.log(`no loops between the areas of src/ (${cruise.modules.length} modules)`);
}
