/** Turns a urql error into what the user reads: the server's code, machine reason and message, never swallowed. */
import type { CombinedError } from 'urql';

export interface ShownError {
  code: string | null;
  reason: string | null;
  message: string;
}

const STATUS_OF: Record<string, string> = {
  FORBIDDEN: '403 Forbidden',
  UNAUTHENTICATED: '401 Unauthenticated',
  NOT_FOUND: '404 Not found',
  CONFLICT: '409 Conflict',
  BAD_USER_INPUT: '422 Invalid input',
  RATE_LIMITED: '429 Rate limited',
};

export function describeError(error: CombinedError | Error | string): ShownError[] {
  if (typeof error === 'string') return [{ code: null, reason: null, message: error }];
  const combined = error as CombinedError;
  if (combined.graphQLErrors?.length) {
    return combined.graphQLErrors.map((e) => {
      const ext = (e.extensions ?? {}) as { code?: string; reason?: string };
      return { code: ext.code ?? null, reason: ext.reason ?? null, message: e.message };
    });
  }
  if (combined.networkError) return [{ code: 'NETWORK', reason: null, message: combined.networkError.message }];
  return [{ code: null, reason: null, message: error.message }];
}

export function errorTitle(e: ShownError): string {
  const status = e.code ? (STATUS_OF[e.code] ?? e.code) : 'Error';
  return e.reason && e.reason !== e.code ? `${status} (${e.reason})` : status;
}
