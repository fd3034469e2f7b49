/**
 * Recognizes Prisma's known request errors by code.
 */
/** True when the error is a unique-constraint violation (P2002). */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code === 'P2002';
}
