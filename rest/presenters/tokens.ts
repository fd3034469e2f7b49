/**
 * The REST shapes of personal access tokens: the listed token, and a minted one (the same plus the
 * cleartext `token`, shown once).
 */
import { snake } from '../shape.js';

export const TOKEN_FIELDS =
  'id name description tokenPrefix status createdAt expiresAt lastUsedAt revokedAt graceUntil';

export function presentToken(t: Record<string, unknown>): Record<string, unknown> {
  return snake(t);
}

/** A MintedToken (`token accessToken { TOKEN_FIELDS }`). */
export function presentMintedToken(m: {
  token: string;
  accessToken: Record<string, unknown>;
}): Record<string, unknown> {
  return { ...presentToken(m.accessToken), token: m.token };
}
