/**
 * The REST shapes of /auth: the login answer and the caller (`GET /auth/me`).
 */
import { snake } from '../shape.js';

export const ME_FIELDS = 'me { id email name role kind createdAt tenant { id name } } viewer { credentialKind }';

export function presentLogin(l: Record<string, unknown>): Record<string, unknown> {
  return snake(l);
}

/** `data` of a query selecting ME_FIELDS. */
export function presentMe(data: {
  me: Record<string, unknown>;
  viewer: { credentialKind: string };
}): Record<string, unknown> {
  return { ...snake<Record<string, unknown>>(data.me), credential_kind: data.viewer.credentialKind };
}
