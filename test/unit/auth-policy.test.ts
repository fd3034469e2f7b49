import { describe, expect, it } from 'vitest';
import {
  assertMayMintFor,
  assertMayMintForOthers,
  mayListTokensOf,
  mayManageToken,
  passwordLoginRefusal,
  seesTokenChange,
} from '../../src/auth/policy.js';
import { Forbidden } from '../../src/errors.js';

const member = { userId: 'mia', role: 'member' as const };
const admin = { userId: 'ada', role: 'admin' as const };
const bot = { id: 'bot', kind: 'service' as const };
const person = { id: 'pat', kind: 'human' as const };

describe('token policy', () => {
  it('lets a user manage and list their own tokens, whatever their role or kind', () => {
    expect(mayManageToken(member, { userId: 'mia', user: { kind: 'human' } })).toBe(true);
    expect(mayManageToken({ userId: 'bot', role: 'member' }, { userId: 'bot', user: { kind: 'service' } })).toBe(true);
    expect(mayListTokensOf(member, { id: 'mia', kind: 'human' })).toBe(true);
  });

  it("lets an admin manage and list a service user's tokens, never another person's", () => {
    expect(mayManageToken(admin, { userId: 'bot', user: { kind: 'service' } })).toBe(true);
    expect(mayListTokensOf(admin, bot)).toBe(true);
    expect(mayManageToken(admin, { userId: 'pat', user: { kind: 'human' } })).toBe(false);
    expect(mayListTokensOf(admin, person)).toBe(false);
  });

  it("keeps members away from everyone else's tokens, service users' included", () => {
    expect(mayManageToken(member, { userId: 'bot', user: { kind: 'service' } })).toBe(false);
    expect(mayManageToken(member, { userId: 'pat', user: { kind: 'human' } })).toBe(false);
    expect(mayListTokensOf(member, bot)).toBe(false);
  });

  it('lets only admins mint for another user, and only for a service user', () => {
    expect(() => assertMayMintForOthers(member)).toThrow(/Only an admin/);
    expect(() => assertMayMintForOthers(admin)).not.toThrow();
    expect(() => assertMayMintFor(admin, bot)).not.toThrow();
    expect(() => assertMayMintFor(admin, person)).toThrow(Forbidden);
    expect(() => assertMayMintFor(admin, person)).toThrow(/service users only/);
    expect(() => assertMayMintFor(member, bot)).toThrow(/Only an admin/);
  });

  it('shows token changes only to the owner of the token', () => {
    expect(seesTokenChange(member, { userId: 'mia' })).toBe(true);
    expect(seesTokenChange(admin, { userId: 'mia' })).toBe(false);
    expect(seesTokenChange(member, {})).toBe(false);
  });
});

describe('password login policy', () => {
  it('lets people log in with a password and tells service users to use a PAT', () => {
    expect(passwordLoginRefusal({ kind: 'human' })).toBeNull();
    expect(passwordLoginRefusal({ kind: 'service' })).toMatch(/personal access token/);
  });
});
