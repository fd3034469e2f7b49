/**
 * Importing an `alertmanager.yml`: its `route` becomes the tenant's routing tree, `inhibit_rules` its
 * inhibition rules, `time_intervals` (and the older top-level `mute_time_intervals`) named time intervals,
 * and each receiver a named receiver, to be pointed at an escalation policy or outbound webhooks here.
 * What has no counterpart (`global`, `templates`, a receiver's `email_configs`, unknown keys) is reported,
 * never guessed. The import is one transaction: the tree and the inhibition rules are replaced, time
 * intervals and receivers of the same name updated (a receiver keeps where it already points).
 */
import YAML from 'yaml';
import { v7 as uuidv7 } from 'uuid';
import { requireUser, type Ctx } from '../context.js';
import { ValidationFailed, type FieldProblem } from '../errors.js';
import type { Prisma } from '../generated/prisma/client.js';
import { MatcherError, parseMatcher, type Matcher } from './matchers.js';
import type { RouteDoc } from './route-tree.js';
import { checkTree } from './routing-tree-store.js';
import { parseSpecs } from './time-intervals.js';

export interface ParsedConfig {
  routes: RouteDoc[];
  receivers: Array<{ name: string; config: Record<string, unknown> }>;
  inhibitRules: Array<{ sourceMatchers: Matcher[]; targetMatchers: Matcher[]; equal: string[] }>;
  timeIntervals: Array<{ name: string; intervals: unknown[] }>;
  /** What could not be mapped, one sentence each. */
  unmapped: string[];
}

const ROUTE_KEYS = new Set([
  'receiver',
  'group_by',
  'continue',
  'matchers',
  'match',
  'match_re',
  'group_wait',
  'group_interval',
  'repeat_interval',
  'mute_time_intervals',
  'active_time_intervals',
  'routes',
]);
const TOP_KEYS = new Set(['route', 'receivers', 'inhibit_rules', 'time_intervals', 'mute_time_intervals']);

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strList = (v: unknown): string[] | null =>
  Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null;
const durationText = (v: unknown): string | null =>
  typeof v === 'string' ? v : typeof v === 'number' ? `${v}s` : null;

/** Matchers of `matchers` (text), `match` (equality) and `match_re` (regex) under `prefix`. */
function matchersOf(
  node: Record<string, unknown>,
  keys: { text: string; eq: string; re: string },
  loc: string[],
  problems: FieldProblem[],
): Matcher[] {
  const out: Matcher[] = [];
  const text = node[keys.text];
  if (text !== undefined) {
    const list = strList(text);
    if (!list) problems.push({ loc: [...loc, keys.text], msg: 'must be a list of matcher strings' });
    for (const [i, t] of (list ?? []).entries()) {
      try {
        out.push(parseMatcher(t));
      } catch (err) {
        if (!(err instanceof MatcherError)) throw err;
        problems.push({ loc: [...loc, keys.text, String(i)], msg: err.message });
      }
    }
  }
  for (const [key, type] of [
    [keys.eq, '='],
    [keys.re, '=~'],
  ] as const) {
    const map = node[key];
    if (map === undefined) continue;
    if (!isObj(map)) {
      problems.push({ loc: [...loc, key], msg: 'must be a map of label name to value' });
      continue;
    }
    for (const name of Object.keys(map).sort()) out.push({ name, type, value: String(map[name]) });
  }
  return out;
}

/** Reads the YAML into our shapes (pure). Throws ValidationFailed naming fields of the document. */
export function parseAlertmanagerConfig(text: string): ParsedConfig {
  let doc: unknown;
  try {
    doc = YAML.parse(text, { maxAliasCount: 100 });
  } catch (err) {
    throw new ValidationFailed([{ loc: ['config'], msg: `not YAML: ${(err as Error).message.split('\n')[0]}` }]);
  }
  if (!isObj(doc) || !isObj(doc.route))
    throw new ValidationFailed([{ loc: ['config', 'route'], msg: 'an alertmanager.yml with a top-level route' }]);
  const problems: FieldProblem[] = [];
  const unmapped: string[] = [];
  for (const k of Object.keys(doc)) if (!TOP_KEYS.has(k)) unmapped.push(`${k}: not imported (no counterpart here)`);
  const routes: RouteDoc[] = [];
  const walk = (node: Record<string, unknown>, parentId: string | null, loc: string[]) => {
    const id = uuidv7();
    for (const k of Object.keys(node)) if (!ROUTE_KEYS.has(k)) unmapped.push(`${loc.join('.')}.${k}: not imported`);
    const groupBy = node.group_by === undefined ? null : strList(node.group_by);
    if (node.group_by !== undefined && !groupBy) problems.push({ loc: [...loc, 'group_by'], msg: 'must be a list' });
    const names = (k: string) => {
      if (node[k] === undefined) return [];
      const l = strList(node[k]);
      if (!l) problems.push({ loc: [...loc, k], msg: 'must be a list of names' });
      return l ?? [];
    };
    routes.push({
      id,
      parentId,
      matchers: matchersOf(node, { text: 'matchers', eq: 'match', re: 'match_re' }, loc, problems),
      continue: node.continue === true,
      receiver: typeof node.receiver === 'string' ? node.receiver : null,
      groupBy,
      groupWait: durationText(node.group_wait),
      groupInterval: durationText(node.group_interval),
      repeatInterval: durationText(node.repeat_interval),
      muteTimeIntervals: names('mute_time_intervals'),
      activeTimeIntervals: names('active_time_intervals'),
    });
    const kids = node.routes;
    if (kids === undefined) return;
    if (!Array.isArray(kids)) return problems.push({ loc: [...loc, 'routes'], msg: 'must be a list of routes' });
    kids.forEach((c: unknown, i) => {
      if (!isObj(c)) problems.push({ loc: [...loc, 'routes', String(i)], msg: 'must be a route' });
      else walk(c, id, [...loc, 'routes', String(i)]);
    });
  };
  walk(doc.route, null, ['route']);

  const receivers: ParsedConfig['receivers'] = [];
  for (const [i, r] of (Array.isArray(doc.receivers) ? doc.receivers : []).entries()) {
    if (!isObj(r) || typeof r.name !== 'string' || !r.name) {
      problems.push({ loc: ['receivers', String(i), 'name'], msg: 'a receiver needs a name' });
      continue;
    }
    const { name, ...config } = r;
    receivers.push({ name, config });
    for (const k of Object.keys(config))
      unmapped.push(
        `receivers.${name}.${k}: not imported; point receiver "${name}" at an escalation policy or outbound webhook`,
      );
  }

  const inhibitRules: ParsedConfig['inhibitRules'] = [];
  for (const [i, r] of (Array.isArray(doc.inhibit_rules) ? doc.inhibit_rules : []).entries()) {
    const loc = ['inhibit_rules', String(i)];
    if (!isObj(r)) {
      problems.push({ loc, msg: 'must be a map' });
      continue;
    }
    const equal = r.equal === undefined ? [] : strList(r.equal);
    if (!equal) problems.push({ loc: [...loc, 'equal'], msg: 'must be a list of label names' });
    inhibitRules.push({
      sourceMatchers: matchersOf(
        r,
        { text: 'source_matchers', eq: 'source_match', re: 'source_match_re' },
        loc,
        problems,
      ),
      targetMatchers: matchersOf(
        r,
        { text: 'target_matchers', eq: 'target_match', re: 'target_match_re' },
        loc,
        problems,
      ),
      equal: equal ?? [],
    });
  }

  const timeIntervals: ParsedConfig['timeIntervals'] = [];
  for (const key of ['time_intervals', 'mute_time_intervals'] as const)
    for (const [i, t] of (Array.isArray(doc[key]) ? (doc[key] as unknown[]) : []).entries()) {
      const loc = [key, String(i)];
      if (!isObj(t) || typeof t.name !== 'string' || !t.name) {
        problems.push({ loc: [...loc, 'name'], msg: 'a time interval needs a name' });
        continue;
      }
      const specs = parseSpecs(t.time_intervals ?? [], [...loc, 'time_intervals']);
      problems.push(...specs.problems);
      timeIntervals.push({ name: t.name, intervals: (t.time_intervals ?? []) as unknown[] });
    }
  if (problems.length) throw new ValidationFailed(problems.map((p) => ({ ...p, loc: ['config', ...p.loc] })));
  return { routes, receivers, inhibitRules, timeIntervals, unmapped };
}

export interface ImportResult {
  routes: number;
  receivers: string[];
  inhibitRules: number;
  timeIntervals: string[];
  unmapped: string[];
}

/** Imports the configuration for the caller's tenant (see the module comment). */
export async function importAlertmanagerConfig(ctx: Ctx, text: string): Promise<ImportResult> {
  const parsed = parseAlertmanagerConfig(text);
  const json = (v: unknown) => v as Prisma.InputJsonValue;
  await ctx.db.$transaction(async (tx) => {
    for (const t of parsed.timeIntervals)
      await tx.timeInterval.upsert({
        where: { tenantId_name: { tenantId: requireUser(ctx).tenantId, name: t.name } },
        create: { name: t.name, intervals: json(t.intervals) } as never,
        update: { intervals: json(t.intervals) },
      });
    for (const r of parsed.receivers)
      await tx.routingReceiver.upsert({
        where: { tenantId_name: { tenantId: requireUser(ctx).tenantId, name: r.name } },
        create: { name: r.name, importedConfig: json(r.config) } as never,
        update: { importedConfig: json(r.config) },
      });
    try {
      await checkTree(tx, parsed.routes);
    } catch (err) {
      if (err instanceof ValidationFailed) {
        const fields = err.extra.fields ?? [];
        throw new ValidationFailed(fields.map((f) => ({ ...f, loc: ['config', 'route', ...f.loc.slice(1)] })));
      }
      throw err;
    }
    await tx.routingTree.upsert({
      where: { tenantId: requireUser(ctx).tenantId },
      create: { routes: json(parsed.routes) } as never,
      update: { routes: json(parsed.routes) },
    });
    await tx.inhibitRule.deleteMany({});
    if (parsed.inhibitRules.length)
      await tx.inhibitRule.createMany({
        data: parsed.inhibitRules.map((r) => ({
          tenantId: requireUser(ctx).tenantId,
          sourceMatchers: json(r.sourceMatchers),
          targetMatchers: json(r.targetMatchers),
          equal: r.equal,
        })),
      });
  });
  return {
    routes: parsed.routes.length,
    receivers: parsed.receivers.map((r) => r.name),
    inhibitRules: parsed.inhibitRules.length,
    timeIntervals: parsed.timeIntervals.map((t) => t.name),
    unmapped: parsed.unmapped,
  };
}
