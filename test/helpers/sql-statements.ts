/**
 * The SQL statements sent through any pg client of this process while `fn` runs (every query Prisma's
 * adapter sends), for tests that count a request's statements or look into them.
 */
import pg from 'pg';

export async function countStatements<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const statements: string[] = [];
  proto.query = function (this: unknown, ...args: unknown[]) {
    const q = args[0] as string | { text?: string };
    statements.push(typeof q === 'string' ? q : (q?.text ?? '?'));
    return original.apply(this, args);
  };
  try {
    return { result: await fn(), statements };
  } finally {
    proto.query = original;
  }
}
