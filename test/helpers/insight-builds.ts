/**
 * The CI builds the insight console tests (reports, fleet) report on: three builds of one source, and one
 * event of another source that a report filtered on the first must leave out.
 */
import { expect } from 'vitest';
import { rest } from './http.js';

export const SOURCE = 'insight-ci';
export const SUMMARIES = ['build 101 passed', 'build 102 failed', 'build 103 passed'];

export async function ingestBuilds(url: string, ingestKey: string): Promise<void> {
  const headers = { 'x-service-key': ingestKey };
  for (const summary of SUMMARIES) {
    const r = await rest(url).post(
      '/events',
      { type: 'ci.build', source: SOURCE, severity: summary.includes('failed') ? 'warning' : 'info', summary },
      { headers },
    );
    expect(r.status).toBe(202);
  }
  await rest(url).post('/events', { type: 'ci.build', source: 'elsewhere', summary: 'not in the report' }, { headers });
}
