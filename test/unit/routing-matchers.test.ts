import { describe, expect, it } from 'vitest';
import {
  formatMatcher,
  fromApiMatcher,
  matcherProblem,
  matchersMatch,
  parseMatcher,
  parseMatchers,
  toApiMatcher,
} from '../../src/routing/matchers.js';

describe('label matchers (Alertmanager syntax and semantics)', () => {
  it("parses amtool's braced form with quoted values and every operator", () => {
    expect(parseMatchers('{alertname="Foo",job=~"api.*",env!="dev",team!~"db|cache"}')).toEqual([
      { name: 'alertname', type: '=', value: 'Foo' },
      { name: 'job', type: '=~', value: 'api.*' },
      { name: 'env', type: '!=', value: 'dev' },
      { name: 'team', type: '!~', value: 'db|cache' },
    ]);
    expect(parseMatchers('alertname=Foo, severity = critical')).toEqual([
      { name: 'alertname', type: '=', value: 'Foo' },
      { name: 'severity', type: '=', value: 'critical' },
    ]);
    expect(parseMatchers('{}')).toEqual([]);
  });

  it('keeps commas and escaped quotes inside quoted values', () => {
    expect(parseMatchers('{summary="a, b",msg="say \\"hi\\"",path="c:\\\\tmp"}')).toEqual([
      { name: 'summary', type: '=', value: 'a, b' },
      { name: 'msg', type: '=', value: 'say "hi"' },
      { name: 'path', type: '=', value: 'c:\\tmp' },
    ]);
  });

  it('rejects malformed matchers', () => {
    expect(() => parseMatcher('alertname')).toThrow(/bad matcher/);
    expect(() => parseMatcher('1abc="x"')).toThrow(/bad matcher/);
    expect(() => parseMatcher('a="x')).toThrow(/closing quote/);
    expect(() => parseMatcher('a="x"y"')).toThrow(/unescaped quote/);
    expect(() => parseMatcher('a=~"(x"')).toThrow(/invalid regex/);
    expect(() => parseMatcher(`a=~"${'x'.repeat(1001)}"`)).toThrow(/1000/);
  });

  it('anchors regexes fully, as Alertmanager does', () => {
    const m = [parseMatcher('job=~"api"')];
    expect(matchersMatch(m, { job: 'api' })).toBe(true);
    expect(matchersMatch(m, { job: 'api-server' })).toBe(false);
    expect(matchersMatch(m, { job: 'my-api' })).toBe(false);
    expect(matchersMatch([parseMatcher('job=~"a|b"')], { job: 'ab' })).toBe(false);
    expect(matchersMatch([parseMatcher('job=~"a|b"')], { job: 'b' })).toBe(true);
  });

  it('treats a missing label as the empty string', () => {
    expect(matchersMatch([parseMatcher('team!="db"')], {})).toBe(true);
    expect(matchersMatch([parseMatcher('team=""')], {})).toBe(true);
    expect(matchersMatch([parseMatcher('team=""')], { team: 'db' })).toBe(false);
    expect(matchersMatch([parseMatcher('team=~".*"')], {})).toBe(true);
    expect(matchersMatch([parseMatcher('team!~".+"')], {})).toBe(true);
  });

  it('runs a pattern that backtracking engines take exponential time on in linear time', () => {
    const evil = parseMatcher('x=~"(a+)+$"');
    const input = 'a'.repeat(5000) + '!';
    expect(matchersMatch([evil], { x: input })).toBe(false);
    expect(matchersMatch([evil], { x: 'aaaa' })).toBe(true);
  });

  it('rejects RE2-unsupported syntax (backreferences, lookahead) as invalid', () => {
    expect(matcherProblem({ name: 'a', type: '=~', value: '(a)\\1' })).toMatch(/invalid regex/);
    expect(matcherProblem({ name: 'a', type: '=~', value: '(?=a)' })).toMatch(/invalid regex/);
    expect(matcherProblem({ name: 'a', type: '=', value: '(a' })).toBeNull();
    expect(matcherProblem({ name: 'a b', type: '=', value: 'x' })).toMatch(/label name/);
    expect(matcherProblem({ name: 'a', type: '==', value: 'x' })).toMatch(/one of/);
  });

  it("converts to and from the API's {name, value, isRegex, isEqual} and prints the text form", () => {
    for (const text of ['a="1"', 'a!="1"', 'a=~"1.*"', 'a!~"1.*"']) {
      const m = parseMatcher(text);
      expect(fromApiMatcher(toApiMatcher(m))).toEqual(m);
      expect(formatMatcher(m)).toBe(text);
    }
    expect(fromApiMatcher({ name: 'a', value: 'b', isRegex: false })).toEqual({ name: 'a', type: '=', value: 'b' });
    expect(formatMatcher({ name: 'm', type: '=', value: 'say "hi"\n' })).toBe('m="say \\"hi\\"\\n"');
  });
});
