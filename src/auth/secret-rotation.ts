/**
 * Rotation of signing secrets that must be read back (inbound and outbound webhooks): the one place
 * for the rule "the previous secret keeps working for 24 hours". Rows keep the current secret and the
 * previous one sealed with the runtime's SecretBox, plus when the previous one stops working.
 */
import type { SecretBox } from '../secrets.js';
import { Conflict } from '../errors.js';

/** How long a rotated-away secret (or ingest key, or PAT) keeps working. */
export const ROTATION_GRACE_MS = 24 * 3600 * 1000;

/** The columns a rotatable secret lives in. */
export interface RotatableSecret {
  secretCiphertext: string;
  previousCiphertext: string | null;
  previousValidUntil: Date | null;
}

/** The update that makes `newSecret` current and keeps the current one working for the grace period. */
export function rotationUpdate(
  box: SecretBox,
  row: Pick<RotatableSecret, 'secretCiphertext'>,
  newSecret: string,
  now: number,
): RotatableSecret {
  return {
    secretCiphertext: box.seal(newSecret),
    previousCiphertext: row.secretCiphertext,
    previousValidUntil: new Date(now + ROTATION_GRACE_MS),
  };
}

/** When the previous secret stops working, or null when there is none that still works. */
export function previousValidUntil(row: RotatableSecret, now: number): Date | null {
  return row.previousCiphertext && row.previousValidUntil && row.previousValidUntil.getTime() > now
    ? row.previousValidUntil
    : null;
}

/** The previous secret in clear while it still works, else null. */
export function previousSecret(box: SecretBox, row: RotatableSecret, now: number): string | null {
  return previousValidUntil(row, now) ? box.open(row.previousCiphertext!) : null;
}

/** Every secret that verifies right now: the current one, and the previous one during its grace. */
export function workingSecrets(box: SecretBox, row: RotatableSecret, now: number): string[] {
  const previous = previousSecret(box, row, now);
  return previous === null ? [box.open(row.secretCiphertext)] : [box.open(row.secretCiphertext), previous];
}

/**
 * A secret, key or token is rotated once per grace period: while the secret it replaced still works, a
 * second rotation would cut that grace short or leave three working secrets. 409 with the time it ends.
 */
export function rotationInGrace(what: string, until: Date | null): Conflict {
  return new Conflict(
    `This ${what} was rotated recently and the previous one still works${until ? ` until ${until.toISOString()}` : ''}; rotate again after that (or revoke and create a new one).`,
    'ROTATION_IN_GRACE',
  );
}

/**
 * The where-clause of a rotation's conditional update: the row still holds the secret the caller read, and
 * no previous secret is in its grace period. Of parallel rotations one matches; the others update nothing.
 */
export function rotationClaim(row: Pick<RotatableSecret, 'secretCiphertext'>, now: Date) {
  return {
    secretCiphertext: row.secretCiphertext,
    OR: [{ previousValidUntil: null }, { previousValidUntil: { lte: now } }],
  };
}
