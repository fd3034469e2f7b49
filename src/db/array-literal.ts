/**
 * Postgres array literals (`{"a","b",NULL}`) for bulk `INSERT … SELECT FROM unnest($n::type[])`: the
 * whole column travels as one text parameter cast to the array type in SQL. Building the literal here
 * is one join; handing the driver a JS array of thousands of values makes Prisma and `pg` walk, convert
 * and escape each element (a large share of a 5,000-sample push's CPU).
 */

/** Quotes one element: backslash and double quote escaped, as Postgres' array input reads them. */
function quote(s: string): string {
  return `"${s.replace(/[\\"]/g, '\\$&')}"`;
}

/** A text[]-shaped literal (also for enums, jsonb and timestamps, cast in SQL); null is NULL. */
export function textArray(values: ReadonlyArray<string | null | undefined>): string {
  return `{${values.map((v) => (v == null ? 'NULL' : quote(v))).join(',')}}`;
}

/** A float8[]/int[] literal of finite numbers; null is NULL. */
export function numberArray(values: ReadonlyArray<number | null | undefined>): string {
  return `{${values
    .map((v) => {
      if (v == null) return 'NULL';
      if (!Number.isFinite(v)) throw new RangeError(`not a finite number: ${v}`);
      return String(v);
    })
    .join(',')}}`;
}
