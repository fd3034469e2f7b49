/**
 * `npm run test:durations -- <report.json>`: writes test/durations.json (seconds per test file, for
 * test/sequencer.ts) from a vitest JSON report (`npm test -- --reporter=json --outputFile=<report.json>`;
 * `.ci/run` writes one). Files of the report that failed keep their old figure.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../src/project-root.js';

interface Report {
  testResults: Array<{ name: string; startTime: number; endTime: number; status: string }>;
}

const source = process.argv[2];
if (!source) {
  console.error('usage: npm run test:durations -- <vitest json report>');
  process.exit(2);
}
const target = path.join(PROJECT_ROOT, 'test', 'durations.json');
const old = fs.existsSync(target) ? (JSON.parse(fs.readFileSync(target, 'utf8')) as Record<string, number>) : {};
const report = JSON.parse(fs.readFileSync(source, 'utf8')) as Report;
const next: Record<string, number> = {};
for (const r of report.testResults) {
  const file = path.relative(PROJECT_ROOT, r.name);
  next[file] =
    r.status === 'passed' || old[file] === undefined ? Math.round((r.endTime - r.startTime) / 100) / 10 : old[file];
}
const sorted = Object.fromEntries(Object.entries(next).sort(([a], [b]) => a.localeCompare(b)));
fs.writeFileSync(target, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`test/durations.json: ${Object.keys(sorted).length} files`);
