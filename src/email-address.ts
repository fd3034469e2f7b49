/**
 * Email addresses as login names and contact addresses: one rule for what the service accepts
 * everywhere an email comes in (user creation, login, password reset, contact methods).
 */
import type { FieldProblem } from './errors.js';

/** RFC 5321's limit on a forward path (254 characters of address); longer ones cannot receive mail. */
export const EMAIL_MAX_LENGTH = 254;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The stored form of a login name: trimmed and lower-case. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Why `email` is not acceptable (null when it is): the problem names the field at `loc`. */
export function emailProblem(email: unknown, loc: string[]): FieldProblem | null {
  if (typeof email !== 'string' || !email.trim()) return { loc, msg: 'is required' };
  const trimmed = email.trim();
  if (trimmed.length > EMAIL_MAX_LENGTH)
    return { loc, msg: `must be at most ${EMAIL_MAX_LENGTH} characters (it has ${trimmed.length})` };
  if (!EMAIL.test(trimmed)) return { loc, msg: 'must be an email address' };
  return null;
}
