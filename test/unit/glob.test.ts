/**
 * Type globs match in linear time (src/events/glob.ts) with the semantics the backtracking regex had
 * (`*` a run without `.`, `**` any run, `?` one character, anchored at both ends).
 */
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { globMatch } from '../../src/events/glob.js';
import { globToRegExp, typeMatches } from '../../src/events/match.js';

/** A small deterministic generator, so a failure names its seed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('linear type globs', () => {
  it('matches the pathological glob against a 200-character type without backtracking', () => {
    const glob = '*a'.repeat(14);
    const miss = 'a'.repeat(199) + '.';
    const hit = 'a'.repeat(200);
    // A backtracking regex spends longer than the universe's age on `miss`; vm's deadline turns that into a
    // failure rather than a hung run. It is a deadline for a hang, not a measurement: the linear matcher
    // takes microseconds.
    const run = (type: string) =>
      vm.runInNewContext('typeMatches(glob, type)', { typeMatches, glob, type }, { timeout: 20_000 }) as boolean;
    expect(run(miss)).toBe(false);
    expect(run(hit)).toBe(true);
    expect(typeMatches('**a'.repeat(14), 'a.'.repeat(99) + 'b')).toBe(false);
  });

  it('keeps the documented cases', () => {
    expect(typeMatches('deploy.*', 'deploy.started')).toBe(true);
    expect(typeMatches('deploy.*', 'deploy.step.done')).toBe(false);
    expect(typeMatches('deploy.**', 'deploy.step.done')).toBe(true);
    expect(typeMatches('deploy.**', 'deploy.')).toBe(true);
    expect(typeMatches('*.started', 'deploy.started')).toBe(true);
    expect(typeMatches('deploy.?tarted', 'deploy.started')).toBe(true);
    expect(typeMatches('deploy.?', 'deploy.')).toBe(false);
    expect(typeMatches('a+b', 'a+b')).toBe(true);
    expect(typeMatches('a+b', 'aab')).toBe(false);
    expect(typeMatches('deploy', 'deploy.started')).toBe(false);
    expect(typeMatches('*', '')).toBe(true);
    expect(typeMatches('?', '')).toBe(false);
    expect(typeMatches('***', 'a.b')).toBe(true);
    expect(typeMatches(null, 'anything')).toBe(true);
  });

  it('agrees with the regex it replaces on 5,000 random globs and types', () => {
    const next = rng(40);
    const pick = (alphabet: string, max: number) =>
      Array.from({ length: Math.floor(next() * (max + 1)) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(
        '',
      );
    for (let i = 0; i < 5_000; i++) {
      const glob = pick('ab.*?', 8);
      const type = pick('ab.\n', 10);
      const expected = globToRegExp(glob).test(type);
      if (globMatch(glob, type) !== expected)
        throw new Error(`glob ${JSON.stringify(glob)} on ${JSON.stringify(type)}: expected ${expected}`);
    }
  });
});
