/**
 * The delivery hot path's statements run on the Prisma client's pg pool without Prisma
 * (src/db/hot-sql.ts). A `timestamp(3)` column holds UTC; pg's own parser would read it as the process's
 * local time, so this reads one in a process whose TZ is not UTC and compares with Prisma's reading.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ADMIN_URL } from './helpers/env.js';

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'hot-sql-zone.ts');

describe('hot-path SQL without Prisma', () => {
  it('reads timestamp(3) as UTC, as Prisma does, in a process on another time zone', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', fixture], {
      env: { ...process.env, TZ: 'America/New_York', DATABASE_URL: ADMIN_URL },
    });
    const out = JSON.parse(stdout);
    expect(out).toEqual({
      zone: 'America/New_York',
      hot: '2026-11-27T16:20:01.500Z',
      none: null,
      j: { a: [1] },
      prisma: '2026-11-27T16:20:01.500Z',
    });
  });
});
