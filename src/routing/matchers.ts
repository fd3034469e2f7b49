/**
 * Label matchers in Alertmanager's model: `name op value` with `=`, `!=`, `=~`, `!~`. A label the set
 * lacks counts as the empty string, so `team!="db"` matches a set without `team` and `team=""` matches
 * only such sets. Regexes are fully anchored (`^(?:value)$`) as Alertmanager anchors them, and run on
 * RE2 semantics (re2js: linear time, no backtracking), so a tenant's pattern cannot stall evaluation.
 *
 * `parseMatchers` reads Alertmanager's text syntax: `{a="b",c=~"d.*"}` (amtool's form) or
 * `a=b, c!~"x"`, with the quoting and escapes of Alertmanager's classic parser (`\"`, `\\`, `\n`).
 */
import { RE2JS } from 're2js';

export const MATCH_TYPES = ['=', '!=', '=~', '!~'] as const;
export type MatchType = (typeof MATCH_TYPES)[number];

export interface Matcher {
  name: string;
  type: MatchType;
  value: string;
}

/** Longest matcher value (and so regex) accepted; label values are cut at 500 on ingest anyway. */
export const MATCHER_VALUE_MAX = 1000;
export const MATCHERS_MAX = 50;
const NAME_RE = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const MATCHER_RE = /^\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(=~|=|!=|!~)\s*([\s\S]*?)\s*$/;

export class MatcherError extends Error {}

const compiled = new Map<string, RE2JS>();

/** The anchored RE2 program of a regex matcher's value (cached; throws MatcherError when invalid). */
export function compileMatcherRegex(value: string): RE2JS {
  let re = compiled.get(value);
  if (re) return re;
  if (value.length > MATCHER_VALUE_MAX) throw new MatcherError(`regex is longer than ${MATCHER_VALUE_MAX} characters`);
  try {
    re = RE2JS.compile(`^(?:${value})$`);
  } catch (err) {
    throw new MatcherError(`invalid regex ${JSON.stringify(value)}: ${(err as Error).message}`);
  }
  if (compiled.size > 5000) compiled.clear();
  compiled.set(value, re);
  return re;
}

/** Checks one matcher's shape; returns the problem or null. */
export function matcherProblem(m: { name?: unknown; type?: unknown; value?: unknown }): string | null {
  if (typeof m.name !== 'string' || !NAME_RE.test(m.name) || m.name.length > 100)
    return 'name must be a label name ([a-zA-Z_:][a-zA-Z0-9_:]*, at most 100 characters)';
  if (!MATCH_TYPES.includes(m.type as MatchType)) return 'type must be one of =, !=, =~, !~';
  if (typeof m.value !== 'string' || m.value.length > MATCHER_VALUE_MAX)
    return `value must be a string of at most ${MATCHER_VALUE_MAX} characters`;
  if (m.type === '=~' || m.type === '!~') {
    try {
      compileMatcherRegex(m.value);
    } catch (err) {
      return (err as Error).message;
    }
  }
  return null;
}

/** Whether the matcher holds for the label set (a missing label is the empty string). */
export function matcherMatches(m: Matcher, labels: Record<string, string>): boolean {
  const v = labels[m.name] ?? '';
  switch (m.type) {
    case '=':
      return v === m.value;
    case '!=':
      return v !== m.value;
    case '=~':
      return compileMatcherRegex(m.value).matches(v);
    case '!~':
      return !compileMatcherRegex(m.value).matches(v);
  }
}

/** Whether every matcher holds (an empty list matches everything). */
export function matchersMatch(ms: Matcher[], labels: Record<string, string>): boolean {
  return ms.every((m) => matcherMatches(m, labels));
}

/** Splits on commas outside double quotes (a backslash escapes the next character inside quotes). */
function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quoted && c === '\\' && i + 1 < s.length) {
      cur += c + s[i + 1];
      i++;
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === ',' && !quoted) {
      parts.push(cur);
      cur = '';
      continue;
    }
    cur += c;
  }
  parts.push(cur);
  return parts;
}

/** Parses one matcher (`name="value"`, `name=~value`), unescaping a quoted value as Alertmanager does. */
export function parseMatcher(text: string): Matcher {
  const m = MATCHER_RE.exec(text);
  if (!m) throw new MatcherError(`bad matcher format: ${text}`);
  let raw = m[3];
  let expectQuote = false;
  if (raw.startsWith('"')) {
    raw = raw.slice(1);
    expectQuote = true;
  }
  let value = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '\\' && i < raw.length - 1) {
      const n = raw[++i];
      value += n === 'n' ? '\n' : n === '"' || n === '\\' ? n : `\\${n}`;
    } else if (c === '"') {
      if (!expectQuote || i < raw.length - 1)
        throw new MatcherError(`matcher value contains an unescaped quote: ${text}`);
      expectQuote = false;
    } else value += c;
  }
  if (expectQuote) throw new MatcherError(`matcher value is missing its closing quote: ${text}`);
  const matcher: Matcher = { name: m[1], type: m[2] as MatchType, value };
  const problem = matcherProblem(matcher);
  if (problem) throw new MatcherError(`${text}: ${problem}`);
  return matcher;
}

/** Parses a list in Alertmanager's syntax: `{a="b",c=~"d.*"}` or `a=b,c!=d` (an empty `{}` is no matcher). */
export function parseMatchers(text: string): Matcher[] {
  let s = text.trim();
  if (s.startsWith('{') && s.endsWith('}')) s = s.slice(1, -1);
  if (s.trim() === '') return [];
  const parts = splitTopLevel(s).filter((p, i, all) => p.trim() !== '' || i !== all.length - 1);
  if (parts.length > MATCHERS_MAX) throw new MatcherError(`at most ${MATCHERS_MAX} matchers`);
  return parts.map(parseMatcher);
}

/** The matcher in Alertmanager's text form (`name=~"value"`), quoting and escaping the value. */
export function formatMatcher(m: Matcher): string {
  const v = m.value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
  return `${m.name}${m.type}"${v}"`;
}

/** Alertmanager API v2's matcher shape ↔ ours. */
export interface ApiMatcher {
  name: string;
  value: string;
  isRegex: boolean;
  isEqual?: boolean;
}

export function fromApiMatcher(m: ApiMatcher): Matcher {
  const equal = m.isEqual !== false;
  return { name: m.name, value: m.value, type: m.isRegex ? (equal ? '=~' : '!~') : equal ? '=' : '!=' };
}

export function toApiMatcher(m: Matcher): Required<ApiMatcher> {
  return { name: m.name, value: m.value, isRegex: m.type.endsWith('~'), isEqual: !m.type.startsWith('!') };
}
