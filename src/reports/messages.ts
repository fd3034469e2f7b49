/**
 * What a panel or a scheduled run says when its report fails: the domain error's message, or a
 * generic one (internal errors are not shown to callers or receivers).
 */
import { DomainError } from '../errors.js';

export function domainMessage(err: unknown): string {
  return err instanceof DomainError ? err.message : 'The report could not be run.';
}
