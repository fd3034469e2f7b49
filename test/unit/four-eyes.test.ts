import { describe, expect, it } from 'vitest';
import { approverCredentialViolation, assertFourEyes, fourEyesViolation } from '../../src/proposals/policy.js';
import { assertCanMove, canMove } from '../../src/proposals/states.js';
import type { Principal } from '../../src/principal.js';
import { Conflict, Forbidden } from '../../src/errors.js';

function principal(overrides: Partial<Principal> = {}): Principal {
  return {
    tenantId: 't',
    userId: 'bob',
    email: 'bob@x.test',
    role: 'member',
    userKind: 'human',
    credential: { kind: 'pat', id: 'tok-1' },
    ...overrides,
  };
}

describe('four-eyes rule', () => {
  const proposal = { proposerId: 'alice' };

  it('lets a human other than the proposer approve, with any credential and role', () => {
    expect(fourEyesViolation(principal(), proposal)).toBeNull();
    expect(
      fourEyesViolation(principal({ credential: { kind: 'session', id: 's' }, role: 'admin' }), proposal),
    ).toBeNull();
  });

  it('refuses the proposer whatever the credential, saying why', () => {
    expect(
      fourEyesViolation(principal({ userId: 'alice', credential: { kind: 'pat', id: 'another-token' } }), proposal),
    ).toMatch(/another of your personal access tokens/);
    expect(
      fourEyesViolation(principal({ userId: 'alice', credential: { kind: 'session', id: 's' } }), proposal),
    ).toMatch(/different human must approve/);
    expect(fourEyesViolation(principal({ userId: 'alice', role: 'admin' }), proposal)).not.toBeNull();
  });

  it('refuses service users and credentials without a user', () => {
    expect(fourEyesViolation(principal({ userKind: 'service' }), proposal)).toMatch(/Service users cannot approve/);
    expect(fourEyesViolation(principal({ userKind: 'service', role: 'admin' }), proposal)).not.toBeNull();
    expect(
      fourEyesViolation(
        principal({ userId: null, userKind: null, credential: { kind: 'webhook', id: 'w' } }),
        proposal,
      ),
    ).toMatch(/signed-in user/);
    expect(fourEyesViolation(null, proposal)).not.toBeNull();
  });

  it('throws Forbidden carrying the reason', () => {
    expect(() => assertFourEyes(principal({ userId: 'alice' }), proposal, 'self_password')).toThrow(Forbidden);
    expect(() => assertFourEyes(principal(), proposal, 'self_password')).not.toThrow();
  });

  it("accepts only the approver's own credential: invitation, reset link or SSO", () => {
    for (const own of ['invited_password', 'self_password', 'sso'] as const) {
      expect(approverCredentialViolation(own)).toBeNull();
      expect(() => assertFourEyes(principal(), proposal, own)).not.toThrow();
    }
    for (const notOwn of ['admin_set', 'legacy', null] as const) {
      expect(approverCredentialViolation(notOwn)).toMatch(/set by an administrator/);
      expect(() => assertFourEyes(principal(), proposal, notOwn)).toThrow(
        expect.objectContaining({ reason: 'APPROVER_CREDENTIAL_NOT_OWN' }),
      );
    }
    // The proposer is refused as the proposer, whatever their credential.
    expect(() => assertFourEyes(principal({ userId: 'alice' }), proposal, 'admin_set')).toThrow(
      expect.objectContaining({ reason: 'PROPOSAL_SELF_APPROVAL' }),
    );
  });
});

describe('proposal state machine', () => {
  it('allows proposed → approved → applied | failed and proposed → denied', () => {
    expect(canMove('proposed', 'approve')).toBe(true);
    expect(canMove('proposed', 'deny')).toBe(true);
    expect(canMove('approved', 'apply')).toBe(true);
    expect(canMove('approved', 'fail')).toBe(true);
    expect(canMove('approved', 'edit')).toBe(true);
  });

  it('rejects every other move with a Conflict naming the status', () => {
    expect(canMove('approved', 'approve')).toBe(false);
    expect(canMove('approved', 'deny')).toBe(false);
    expect(canMove('denied', 'approve')).toBe(false);
    expect(canMove('applied', 'edit')).toBe(false);
    expect(canMove('proposed', 'apply')).toBe(false);
    expect(() => assertCanMove('applied', 'approve')).toThrow(Conflict);
    expect(() => assertCanMove('denied', 'deny')).toThrow(/denied/);
  });
});
