/**
 * The order test files start in: longest first, from the durations of the last full run committed in
 * test/durations.json (`npm run test:durations -- <vitest json report>` rewrites it). Two workers share the files;
 * started last, a 2-minute file (the docs runner) left one core idle for its whole run. Vitest's own order
 * needs its local results cache, which a clean clone (CI) does not have, and then falls back to file size,
 * which says little here: the smallest files (docs-run, 45 lines) are among the slowest.
 * A file the list does not know yet runs first: it may be slow, and a new file is what its author wants to see.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const DURATIONS = path.join(import.meta.dirname, 'durations.json');

function readDurations(): Record<string, number> {
  try {
    return JSON.parse(fs.readFileSync(DURATIONS, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

export default class DurationSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const known = readDurations();
    const root = this.ctx.config.root;
    const seconds = (f: TestSpecification) => known[path.relative(root, f.moduleId)] ?? Number.POSITIVE_INFINITY;
    return [...files].sort((a, b) => {
      const [sa, sb] = [seconds(a), seconds(b)];
      return sa === sb ? a.moduleId.localeCompare(b.moduleId) : sb > sa ? 1 : -1;
    });
  }
}
