/** Postgres array literals built for bulk unnest INSERTs, read back by the real Postgres. */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numberArray, textArray } from '../../src/db/array-literal.js';
import { ADMIN_URL } from '../helpers/env.js';

let sql: pg.Client;

beforeAll(async () => {
  sql = new pg.Client({ connectionString: ADMIN_URL });
  await sql.connect();
});
afterAll(async () => {
  await sql.end();
});

describe('array literals', () => {
  it('round-trips text with quotes, backslashes, commas, braces, NULL-looking text and nulls', async () => {
    const values = [
      'plain',
      'a "quoted" word',
      'back\\slash',
      'x,y',
      '{braces}',
      'NULL',
      '',
      ' spaced ',
      'ünïcødé',
      null,
    ];
    const r = await sql.query('SELECT $1::text[] AS v', [textArray(values)]);
    expect(r.rows[0].v).toEqual(values);
  });

  it('round-trips numbers and nulls, and refuses a non-finite number', async () => {
    const values = [0, -1.5, 1e-7, 123456789.125, 1e15, null];
    const r = await sql.query('SELECT $1::float8[] AS v', [numberArray(values)]);
    expect(r.rows[0].v).toEqual(values);
    expect(() => numberArray([Number.NaN])).toThrow(RangeError);
    expect(() => numberArray([Infinity])).toThrow(RangeError);
  });
});
