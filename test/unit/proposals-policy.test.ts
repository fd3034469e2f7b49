import { describe, expect, it } from 'vitest';
import { assertMayEditProposal, mayEditProposal } from '../../src/proposals/policy.js';
import { Forbidden } from '../../src/errors.js';

// The four-eyes rule of the same policy is covered by test/unit/four-eyes.test.ts.
describe('proposal edit policy', () => {
  const proposal = { proposerId: 'alice' };

  it('lets the proposer change the proposal', () => {
    expect(mayEditProposal({ userId: 'alice' }, proposal)).toBe(true);
    expect(() => assertMayEditProposal({ userId: 'alice' }, proposal)).not.toThrow();
  });

  it('refuses everyone else, with a Forbidden that says to open a new proposal', () => {
    expect(mayEditProposal({ userId: 'bob' }, proposal)).toBe(false);
    expect(mayEditProposal({ userId: null }, proposal)).toBe(false);
    expect(() => assertMayEditProposal({ userId: 'bob' }, proposal)).toThrow(Forbidden);
    expect(() => assertMayEditProposal({ userId: 'bob' }, proposal)).toThrow(/open a new one/);
  });
});
