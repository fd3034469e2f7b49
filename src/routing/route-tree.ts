/**
 * A tenant's routing tree in Alertmanager's model, pure: which routes an alert's label set takes, with
 * what each route inherits, and the group an alert forms on a route.
 *
 * The tree is stored flat (each route names its parent; siblings keep their list order), as the API and
 * the console edit it. Matching follows Alertmanager's `Route.Match`: the root matches every alert; a
 * route's children are tried in order; a matching child's own matches (or the child itself when none of
 * its children match) are taken, and the search stops after it unless it has `continue`. A route no child
 * of which matches is itself the match.
 *
 * Inherited when unset (as in Alertmanager): receiver, group_by, group_wait, group_interval,
 * repeat_interval. `mute_time_intervals` and `active_time_intervals` belong to the route that names them.
 * `group_by: ['...']` groups by every label.
 */
import { createHash } from 'node:crypto';
import { parseDurationSeconds } from '../duration.js';
import { matcherProblem, matchersMatch, parseMatcher, type Matcher } from './matchers.js';

/** One route as stored and edited. `null` fields inherit from the parent. */
export interface RouteDoc {
  id: string;
  parentId: string | null;
  matchers: Matcher[];
  continue: boolean;
  /** A named receiver (RoutingReceiver.name); null inherits (the root's null: the tenant default policy). */
  receiver: string | null;
  groupBy: string[] | null;
  /** Durations as Alertmanager writes them ("30s", "5m", "4h", "1h30m"). */
  groupWait: string | null;
  groupInterval: string | null;
  repeatInterval: string | null;
  muteTimeIntervals: string[];
  activeTimeIntervals: string[];
}

/** A matched route with what it inherited filled in. */
export interface ResolvedRoute {
  id: string;
  /** Route ids from the root to this route. */
  path: string[];
  receiver: string | null;
  /** The label names it groups by; `groupByAll` when `...`. */
  groupBy: string[];
  groupByAll: boolean;
  groupWaitSeconds: number;
  groupIntervalSeconds: number;
  repeatIntervalSeconds: number;
  muteTimeIntervals: string[];
  activeTimeIntervals: string[];
  continue: boolean;
}

/** Alertmanager's defaults for the root route. */
export const ROUTE_DEFAULTS = { groupWait: '30s', groupInterval: '5m', repeatInterval: '4h' } as const;
export const ROUTES_MAX = 500;
/** Longest group_wait, group_interval or repeat_interval accepted. */
export const ROUTE_DURATION_MAX_SECONDS = 365 * 86_400;
export const GROUP_BY_ALL = '...';

const LABEL_NAME_RE = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const INTERVAL_NAME_MAX = 200;

export interface TreeProblem {
  loc: string[];
  msg: string;
}

/** Seconds of a route duration, or null when unreadable or negative. */
export function routeDurationSeconds(text: string): number | null {
  const s = parseDurationSeconds(text);
  return s === null || s < 0 ? null : s;
}

/**
 * Checks a flat tree: exactly one root (parentId null, no matchers, no `continue`), unique ids, parents that
 * exist, no cycles, valid matchers, durations, label names and time interval names. Returns the problems,
 * each located at `['routes', index, field]`.
 */
export function treeProblems(routes: RouteDoc[]): TreeProblem[] {
  const problems: TreeProblem[] = [];
  const at = (i: number, f: string, msg: string) => problems.push({ loc: ['routes', String(i), f], msg });
  if (routes.length === 0) return [{ loc: ['routes'], msg: 'must hold the root route' }];
  if (routes.length > ROUTES_MAX) return [{ loc: ['routes'], msg: `at most ${ROUTES_MAX} routes` }];
  const ids = new Map<string, number>();
  routes.forEach((r, i) => {
    if (typeof r.id !== 'string' || r.id.length === 0 || r.id.length > 100) at(i, 'id', 'must be 1 to 100 characters');
    else if (ids.has(r.id)) at(i, 'id', `duplicates route ${ids.get(r.id)}`);
    else ids.set(r.id, i);
  });
  const roots = routes.filter((r) => r.parentId === null);
  if (roots.length !== 1) problems.push({ loc: ['routes'], msg: 'must have exactly one root route (parentId null)' });
  routes.forEach((r, i) => {
    if (r.parentId !== null && !ids.has(r.parentId)) at(i, 'parentId', 'must name a route of this tree');
    if (r.parentId === null && r.matchers.length) at(i, 'matchers', 'the root route matches every alert: no matchers');
    if (r.parentId === null && r.continue) at(i, 'continue', 'the root route cannot continue');
    r.matchers.forEach((m, j) => {
      const p = matcherProblem(m);
      if (p) problems.push({ loc: ['routes', String(i), 'matchers', String(j)], msg: p });
    });
    for (const g of r.groupBy ?? [])
      if (g !== GROUP_BY_ALL && !LABEL_NAME_RE.test(g)) at(i, 'groupBy', `"${g}" is not a label name`);
    if (r.groupBy?.includes(GROUP_BY_ALL) && r.groupBy.length > 1) at(i, 'groupBy', '"..." (every label) stands alone');
    for (const f of ['groupWait', 'groupInterval', 'repeatInterval'] as const) {
      const v = r[f];
      if (v === null) continue;
      const secs = routeDurationSeconds(v);
      if (secs === null) at(i, f, 'must be a duration such as 30s, 5m, 4h or 1h30m');
      else if (secs === 0 && f !== 'groupWait') at(i, f, 'must be more than zero');
      else if (secs > ROUTE_DURATION_MAX_SECONDS) at(i, f, 'must be at most 365d');
    }
    for (const f of ['muteTimeIntervals', 'activeTimeIntervals'] as const)
      for (const n of r[f]) if (!n || n.length > INTERVAL_NAME_MAX) at(i, f, 'names must be 1 to 200 characters');
    if (r.receiver !== null && (r.receiver.length === 0 || r.receiver.length > 200))
      at(i, 'receiver', 'must be 1 to 200 characters');
  });
  // Every route reaches the root (no cycle).
  const byId = new Map(routes.map((r) => [r.id, r]));
  routes.forEach((r, i) => {
    const seen = new Set<string>();
    let cur: RouteDoc | undefined = r;
    while (cur && cur.parentId !== null) {
      if (seen.has(cur.id)) {
        at(i, 'parentId', 'forms a cycle');
        return;
      }
      seen.add(cur.id);
      cur = byId.get(cur.parentId);
    }
  });
  return problems;
}

/** Children of each route id, in list order. */
function childrenOf(routes: RouteDoc[]): Map<string | null, RouteDoc[]> {
  const out = new Map<string | null, RouteDoc[]>();
  for (const r of routes) {
    const list = out.get(r.parentId);
    if (list) list.push(r);
    else out.set(r.parentId, [r]);
  }
  return out;
}

interface Inherited {
  receiver: string | null;
  groupBy: string[];
  groupWait: string;
  groupInterval: string;
  repeatInterval: string;
}

function resolve(r: RouteDoc, parent: Inherited, path: string[]): { res: ResolvedRoute; inh: Inherited } {
  const inh: Inherited = {
    receiver: r.receiver ?? parent.receiver,
    groupBy: r.groupBy ?? parent.groupBy,
    groupWait: r.groupWait ?? parent.groupWait,
    groupInterval: r.groupInterval ?? parent.groupInterval,
    repeatInterval: r.repeatInterval ?? parent.repeatInterval,
  };
  const all = inh.groupBy.includes(GROUP_BY_ALL);
  return {
    inh,
    res: {
      id: r.id,
      path,
      receiver: inh.receiver,
      groupBy: all ? [] : [...inh.groupBy],
      groupByAll: all,
      groupWaitSeconds: routeDurationSeconds(inh.groupWait) ?? 30,
      groupIntervalSeconds: routeDurationSeconds(inh.groupInterval) ?? 300,
      repeatIntervalSeconds: routeDurationSeconds(inh.repeatInterval) ?? 14_400,
      muteTimeIntervals: r.muteTimeIntervals,
      activeTimeIntervals: r.activeTimeIntervals,
      continue: r.continue,
    },
  };
}

/** The routes an alert with `labels` takes, in order (at least the root). The tree must be valid. */
export function matchRoutes(routes: RouteDoc[], labels: Record<string, string>): ResolvedRoute[] {
  const kids = childrenOf(routes);
  const root = (kids.get(null) ?? [])[0];
  if (!root) return [];
  const top: Inherited = {
    receiver: null,
    groupBy: [],
    groupWait: ROUTE_DEFAULTS.groupWait,
    groupInterval: ROUTE_DEFAULTS.groupInterval,
    repeatInterval: ROUTE_DEFAULTS.repeatInterval,
  };
  const walk = (r: RouteDoc, parent: Inherited, path: string[]): ResolvedRoute[] => {
    if (!matchersMatch(r.matchers, labels)) return [];
    const here = resolve(r, parent, [...path, r.id]);
    const all: ResolvedRoute[] = [];
    for (const child of kids.get(r.id) ?? []) {
      const m = walk(child, here.inh, here.res.path);
      all.push(...m);
      if (m.length && !child.continue) break;
    }
    return all.length ? all : [here.res];
  };
  return walk(root, top, []);
}

/** The label values an alert groups by on a route (every label for `...`), sorted by name. */
export function groupLabels(route: ResolvedRoute, labels: Record<string, string>): Record<string, string> {
  const names = route.groupByAll ? Object.keys(labels) : route.groupBy;
  const out: Record<string, string> = {};
  for (const n of [...names].sort()) if (labels[n] !== undefined && labels[n] !== '') out[n] = labels[n];
  return out;
}

/** The key alerts share while their group is live: the route and its group_by values (hashed to a fixed size). */
export function routeGroupKey(route: ResolvedRoute, labels: Record<string, string>): string {
  const digest = createHash('sha256')
    .update(JSON.stringify(groupLabels(route, labels)))
    .digest('hex')
    .slice(0, 32);
  return `route:${route.id}:${digest}`;
}

/** Parses matchers written as Alertmanager text (`team="db"`), one per entry. Throws MatcherError. */
export function parseRouteMatchers(texts: string[]): Matcher[] {
  return texts.map((t) => parseMatcher(t));
}

/** The implicit tree of a tenant that never edited it: one root sending to the default policy. */
export function defaultTree(rootId = 'root'): RouteDoc[] {
  return [
    {
      id: rootId,
      parentId: null,
      matchers: [],
      continue: false,
      receiver: null,
      groupBy: null,
      groupWait: null,
      groupInterval: null,
      repeatInterval: null,
      muteTimeIntervals: [],
      activeTimeIntervals: [],
    },
  ];
}
