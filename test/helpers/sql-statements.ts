/**
 * The SQL statements sent through any pg client of this process while `fn` runs (every query Prisma's
 * adapter sends), for tests that count a request's statements or look into them.
 */
import pg from 'pg';

export async function countStatements<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; statements: string[]; values: unknown[][] }> {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const statements: string[] = [];
  // Each statement's parameters (same order), for a test that plans a statement the service sent.
  const values: unknown[][] = [];
  proto.query = function (this: unknown, ...args: unknown[]) {
    const q = args[0] as string | { text?: string; values?: unknown[] };
    statements.push(typeof q === 'string' ? q : (q?.text ?? '?'));
    values.push(Array.isArray(args[1]) ? args[1] : typeof q === 'object' && Array.isArray(q?.values) ? q.values : []);
    return original.apply(this, args);
  };
  try {
    return { result: await fn(), statements, values };
  } finally {
    proto.query = original;
  }
}
