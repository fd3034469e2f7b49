/** Where the tests find Postgres and Redis. */
export const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The URL of database `name` on the admin server. */
export function dbUrl(name: string): string {
  const u = new URL(ADMIN_URL);
  u.pathname = '/' + name;
  return u.toString();
}
