/**
 * Recognizes Prisma's known request errors by code.
 */
/** True when the error is a unique-constraint violation (P2002). */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code === 'P2002';
}

/**
 * True when the error (or one it wraps) is Postgres cancelling a statement for `statement_timeout`
 * (SQLSTATE 57014 with that message; a cancel by an operator has another message).
 */
export function isStatementTimeout(err: unknown): boolean {
  let e: unknown = err;
  for (let i = 0; i < 6 && e && typeof e === 'object'; i++) {
    const x = e as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      originalError?: unknown;
      meta?: { driverAdapterError?: unknown };
    };
    if (typeof x.message === 'string' && /statement timeout/i.test(x.message)) return true;
    e = x.originalError ?? x.cause ?? x.meta?.driverAdapterError;
  }
  return false;
}
