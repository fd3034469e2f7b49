/**
 * The import rules of .dependency-cruiser.cjs hold for the whole tree: the domain never imports the
 * layers above it, no import circles, no Prisma in rest/, and no loop between the areas of src/
 * (computed here from the same cruise, at folder level). A wrong import fails here (and in CI).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { areaLoops } from '../scripts/area-loops.js';

const run = promisify(execFile);

interface CruiseResult {
  summary: { violations: Array<{ from: string; to: string; rule: { name: string } }>; totalCruised: number };
  modules: Array<{ source: string; dependencies: Array<{ resolved: string }> }>;
}

describe('architecture', () => {
  it('every import follows the layer rules and nothing imports in a circle', async () => {
    const { stdout } = await run(
      process.execPath,
      [
        'node_modules/dependency-cruiser/bin/dependency-cruise.mjs',
        '--config',
        '.dependency-cruiser.cjs',
        '--output-type',
        'json',
        'src',
        'schema',
        'rest',
        'workers',
      ],
      {
        maxBuffer: 64 * 1024 * 1024,
      },
    ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
    const result = JSON.parse(stdout) as CruiseResult;
    const sources = result.modules.map((m) => m.source);
    // The cruise really saw the tree (every layer), so an empty violation list means something.
    for (const layer of ['src/server/', 'src/events/', 'schema/', 'rest/', 'workers/']) {
      expect(
        sources.some((s) => s.startsWith(layer)),
        layer,
      ).toBe(true);
    }
    const violations = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
    expect(violations).toEqual([]);
    // No loop between areas either (rules → webhooks → rules through two files is no file circle, but
    // it ties the areas together): shared pieces live below both (src/events/match.ts, src/net/).
    expect(areaLoops(result.modules)).toEqual([]);
  });

  it('finds a loop between areas when there is one', () => {
    const mod = (source: string, ...deps: string[]) => ({
      source,
      dependencies: deps.map((resolved) => ({ resolved })),
    });
    const loops = areaLoops([
      mod('src/rules/evaluate.ts', 'src/webhooks/event-triggers.ts', 'src/db/client.ts'),
      mod('src/webhooks/triggers.ts', 'src/rules/match.ts'),
      mod('src/db/client.ts'),
    ]);
    expect(loops).toHaveLength(1);
    expect(loops[0]!.sort()).toEqual([
      'rules → webhooks (src/rules/evaluate.ts → src/webhooks/event-triggers.ts)',
      'webhooks → rules (src/webhooks/triggers.ts → src/rules/match.ts)',
    ]);
    expect(areaLoops([mod('src/runtime.ts', 'src/db/client.ts'), mod('src/db/client.ts', 'src/config.ts')])).toEqual(
      [],
    );
  });
});
