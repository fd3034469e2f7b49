/**
 * The REST shapes of users (`UsersUser`) and of a forced password reset (`UsersPasswordReset`).
 */
import { snake } from '../shape.js';
import type { components } from '../../src/openapi-types.js';

export const USER_FIELDS = 'id email name role kind credentialOrigin createdAt';

export function presentUser(u: Record<string, unknown>): components['schemas']['UsersUser'] {
  return snake(u);
}

export const PASSWORD_RESET_FIELDS = 'user { id } linkSentTo linkExpiresAt sessionsEnded tokensRevoked';

export function presentPasswordReset(r: {
  user: { id: string };
  linkSentTo: string;
  linkExpiresAt: string;
  sessionsEnded: number;
  tokensRevoked: number;
}): components['schemas']['UsersPasswordReset'] {
  return {
    user_id: r.user.id,
    link_sent_to: r.linkSentTo,
    link_expires_at: r.linkExpiresAt,
    sessions_ended: r.sessionsEnded,
    tokens_revoked: r.tokensRevoked,
  };
}
