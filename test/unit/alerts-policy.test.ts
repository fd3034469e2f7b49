import { describe, expect, it } from 'vitest';
import { alertActor } from '../../src/alerts/policy.js';
import type { Principal } from '../../src/principal.js';
import { Forbidden, Unauthenticated } from '../../src/errors.js';

function principal(overrides: Partial<Principal> = {}): Principal {
  return {
    tenantId: 't',
    userId: 'u1',
    email: 'u1@x.test',
    role: 'member',
    userKind: 'human',
    credential: { kind: 'pat', id: 'tok' },
    ...overrides,
  };
}

describe('alert policy', () => {
  it('lets any user of the tenant act, members and service users included', () => {
    expect(alertActor(principal()).userId).toBe('u1');
    expect(alertActor(principal({ userKind: 'service', userId: 'bot' })).userId).toBe('bot');
    expect(alertActor(principal({ role: 'admin', credential: { kind: 'session', id: 's' } })).userId).toBe('u1');
  });

  it('refuses credentials that act for no one, and anonymous callers', () => {
    expect(() =>
      alertActor(principal({ userId: null, role: null, userKind: null, credential: { kind: 'ingest_key', id: 'k' } })),
    ).toThrow(Forbidden);
    expect(() => alertActor(null)).toThrow(Unauthenticated);
  });
});
