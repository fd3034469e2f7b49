/**
 * Pure rule matching: type globs, label subsets, payload conditions and summary/dedup templates.
 * No I/O here, so the evaluation worker and the unit tests share exactly the same logic.
 */
import { globMatch } from './glob.js';

export type Severity = 'info' | 'warning' | 'critical';
export const PAYLOAD_OPS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'contains', 'exists', 'in'] as const;
export type PayloadOp = (typeof PAYLOAD_OPS)[number];

export interface PayloadCondition {
  path: string;
  op: PayloadOp;
  value?: unknown;
}

/** The parts of an event a rule looks at. */
export interface MatchableEvent {
  type: string;
  module: string | null;
  source: string;
  severity: Severity;
  summary?: string | null;
  labels: Record<string, unknown>;
  payload: unknown;
}

/** The selection criteria of a rule (match and absence rules share them). */
export interface RuleCriteria {
  typeGlob: string | null;
  severities: Severity[];
  module: string | null;
  source: string | null;
  labels: Record<string, unknown>;
  payloadConditions: PayloadCondition[];
}

const globCache = new Map<string, RegExp>();

/**
 * A type glob as a regex: `*` matches any run of characters except `.`, `**` any run including `.`,
 * `?` one character; everything else is literal. `deploy.*` matches `deploy.started` but not
 * `deploy.step.done`; `deploy.**` matches both. The whole type must match. Only for Postgres, whose
 * regex engine does not backtrack (billing meters filter rows with it): in process, globs are matched
 * by `typeMatches`, in linear time (./glob.ts), never by this backtracking regex.
 */
export function globToRegExp(glob: string): RegExp {
  let re = globCache.get(glob);
  if (re) return re;
  let src = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        src += '.*';
        i++;
      } else src += '[^.]*';
    } else if (c === '?') src += '.';
    else src += c.replace(/[\\^$+?.()|[\]{}]/g, '\\$&');
  }
  re = new RegExp(`^${src}$`);
  if (globCache.size > 10_000) globCache.clear();
  globCache.set(glob, re);
  return re;
}

/** True when `type` matches the glob (a null/empty glob matches every type), in linear time. */
export function typeMatches(glob: string | null, type: string): boolean {
  if (!glob) return true;
  return globMatch(glob, type);
}

/** Reads a dotted path (`a.b.0.c`) from a JSON value; undefined when any step is missing. */
export function readPath(value: unknown, path: string): unknown {
  let cur: unknown = value;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Evaluates one payload condition. Missing values never satisfy a comparison (`neq` included), only
 * `exists: false`. Ordering ops compare numbers (numeric strings count) and otherwise fail; `in` takes
 * a list of allowed values. Alert rules and outbound webhook triggers share this one matcher.
 */
export function conditionHolds(payload: unknown, cond: PayloadCondition): boolean {
  const actual = readPath(payload, cond.path);
  if (cond.op === 'exists')
    return (actual !== undefined && actual !== null) === (cond.value === undefined ? true : Boolean(cond.value));
  if (actual === undefined) return false;
  switch (cond.op) {
    case 'eq':
      return jsonEqual(actual, cond.value);
    case 'neq':
      return !jsonEqual(actual, cond.value);
    case 'contains':
      if (typeof actual === 'string') return typeof cond.value === 'string' && actual.includes(cond.value);
      if (Array.isArray(actual)) return actual.some((x) => jsonEqual(x, cond.value));
      return false;
    case 'in':
      return Array.isArray(cond.value) && cond.value.some((x) => jsonEqual(actual, x));
    default: {
      const a = asNumber(actual);
      const b = asNumber(cond.value);
      if (a === undefined || b === undefined) return false;
      if (cond.op === 'gt') return a > b;
      if (cond.op === 'gte') return a >= b;
      if (cond.op === 'lt') return a < b;
      return a <= b;
    }
  }
}

/** True when every label of the rule is present on the event with the same value. */
export function labelsMatch(required: Record<string, unknown>, actual: Record<string, unknown>): boolean {
  for (const [k, v] of Object.entries(required)) if (actual[k] !== v) return false;
  return true;
}

/** True when the event fits every criterion the rule sets (unset criteria match anything). */
export function eventMatches(rule: RuleCriteria, ev: MatchableEvent): boolean {
  if (!typeMatches(rule.typeGlob, ev.type)) return false;
  if (rule.severities.length > 0 && !rule.severities.includes(ev.severity)) return false;
  if (rule.module && rule.module !== ev.module) return false;
  if (rule.source && rule.source !== ev.source) return false;
  if (!labelsMatch(rule.labels ?? {}, ev.labels ?? {})) return false;
  for (const c of rule.payloadConditions ?? []) if (!conditionHolds(ev.payload, c)) return false;
  return true;
}

/** What makes an event resolve a match rule's alerts (besides `event_action: resolve`). */
export interface ResolveCriteria {
  resolveTypeGlob: string | null;
  resolveConditions: PayloadCondition[];
  module: string | null;
  source: string | null;
  labels: Record<string, unknown>;
}

/**
 * True when the event meets the rule's resolve criteria: a resolve type glob is set and matches, every
 * resolve condition holds, and the rule's module, source and labels (when set) fit too, so a resolving
 * event comes from what the rule watches. Severity and the trigger's payload conditions do not apply
 * (recoveries are usually `info` and carry a different payload).
 */
export function eventResolves(rule: ResolveCriteria, ev: MatchableEvent): boolean {
  if (!rule.resolveTypeGlob || !typeMatches(rule.resolveTypeGlob, ev.type)) return false;
  if (rule.module && rule.module !== ev.module) return false;
  if (rule.source && rule.source !== ev.source) return false;
  if (!labelsMatch(rule.labels ?? {}, ev.labels ?? {})) return false;
  for (const c of rule.resolveConditions ?? []) if (!conditionHolds(ev.payload, c)) return false;
  return true;
}

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const TEMPLATE_ROOTS = new Set([
  'type',
  'source',
  'module',
  'severity',
  'summary',
  'labels',
  'payload',
  'rule',
  'windowSeconds',
]);

/** Problems with a template (unknown placeholders, unbalanced braces); empty when it is fine. */
export function templateProblems(template: string): string[] {
  const problems: string[] = [];
  const stripped = template.replace(PLACEHOLDER, (_m, expr: string) => {
    const root = expr.split('.')[0] ?? '';
    if (!expr || !/^[A-Za-z_][\w-]*(\.[\w-]+)*$/.test(expr))
      problems.push(`"{{${expr}}}" is not a placeholder (use e.g. {{type}}, {{payload.x}})`);
    else if (!TEMPLATE_ROOTS.has(root))
      problems.push(`unknown placeholder "{{${expr}}}"; use one of ${[...TEMPLATE_ROOTS].join(', ')}`);
    return '';
  });
  if (stripped.includes('{{') || stripped.includes('}}')) problems.push('has unbalanced {{ }}');
  return problems;
}

function stringify(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/**
 * Renders `{{path}}` placeholders against `vars` (e.g. `{{type}} on {{source}}`, `{{payload.x}}`,
 * `{{rule.name}}`). A missing value renders as an empty string; the result is never longer than 1000.
 */
export function renderTemplate(template: string, vars: Record<string, unknown>): string {
  return template.replace(PLACEHOLDER, (_m, expr: string) => stringify(readPath(vars, expr))).slice(0, 1000);
}
