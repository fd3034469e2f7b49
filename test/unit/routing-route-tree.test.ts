import { describe, expect, it } from 'vitest';
import {
  defaultTree,
  groupLabels,
  matchRoutes,
  routeGroupKey,
  treeProblems,
  type RouteDoc,
} from '../../src/routing/route-tree.js';
import { parseMatchers } from '../../src/routing/matchers.js';
import { parseAlertmanagerConfig } from '../../src/routing/alertmanager-import.js';

function route(id: string, parentId: string | null, over: Partial<RouteDoc> = {}): RouteDoc {
  return { ...defaultTree(id)[0]!, parentId, ...over };
}

// root (receiver default, group_by alertname, group_wait 10s)
//  ├─ db      team="db", continue, receiver db, group_wait 1m
//  │   └─ db-page  severity=~"critical|page", receiver db-pager
//  ├─ db-audit team="db", receiver db-audit, group_by ...
//  └─ web     service!~"api|web" → never for api/web, receiver other
const tree: RouteDoc[] = [
  route('root', null, { receiver: 'default', groupBy: ['alertname'], groupWait: '10s' }),
  route('db', 'root', { matchers: parseMatchers('team="db"'), continue: true, receiver: 'db', groupWait: '1m' }),
  route('db-page', 'db', { matchers: parseMatchers('severity=~"critical|page"'), receiver: 'db-pager' }),
  route('db-audit', 'root', { matchers: parseMatchers('team="db"'), receiver: 'db-audit', groupBy: ['...'] }),
  route('other', 'root', { matchers: parseMatchers('service!~"api|web"'), receiver: 'other' }),
];

const receivers = (labels: Record<string, string>) => matchRoutes(tree, labels).map((r) => r.receiver);

describe('matchRoutes (Alertmanager Route.Match)', () => {
  it('takes the deepest matching route, and goes on past a route with continue', () => {
    expect(receivers({ team: 'db', severity: 'critical', service: 'api' })).toEqual(['db-pager', 'db-audit']);
    expect(receivers({ team: 'db', severity: 'warning', service: 'api' })).toEqual(['db', 'db-audit']);
  });
  it('stops at the first matching child without continue', () => {
    expect(receivers({ team: 'web', service: 'billing' })).toEqual(['other']);
  });
  it('falls back to the root when no child matches', () => {
    expect(receivers({ service: 'api' })).toEqual(['default']);
  });
  it('inherits unset fields from the parent and keeps its own', () => {
    const [page, audit] = matchRoutes(tree, { team: 'db', severity: 'page', service: 'web' });
    expect(page).toMatchObject({ id: 'db-page', path: ['root', 'db', 'db-page'], groupBy: ['alertname'] });
    expect(page!.groupWaitSeconds).toBe(60);
    expect(page!.groupIntervalSeconds).toBe(300);
    expect(page!.repeatIntervalSeconds).toBe(4 * 3600);
    expect(audit).toMatchObject({ groupByAll: true, groupWaitSeconds: 10 });
  });
  it('the default tree sends everything to the root with no receiver', () => {
    expect(matchRoutes(defaultTree(), { a: 'b' })).toMatchObject([{ id: 'root', receiver: null, groupBy: [] }]);
  });
});

describe('group keys', () => {
  it('are equal for alerts with the same group_by values, different otherwise', () => {
    const [r] = matchRoutes(tree, { alertname: 'Down', pod: 'a', service: 'api' });
    const a = routeGroupKey(r!, { alertname: 'Down', pod: 'a', service: 'api' });
    expect(routeGroupKey(r!, { alertname: 'Down', pod: 'b', service: 'api' })).toBe(a);
    expect(routeGroupKey(r!, { alertname: 'Up', pod: 'a', service: 'api' })).not.toBe(a);
    expect(a.startsWith('route:root:')).toBe(true);
  });
  it('group by every label with ...', () => {
    const [, audit] = matchRoutes(tree, { team: 'db', pod: 'a' });
    expect(groupLabels(audit!, { team: 'db', pod: 'a' })).toEqual({ pod: 'a', team: 'db' });
    expect(routeGroupKey(audit!, { team: 'db', pod: 'a' })).not.toBe(routeGroupKey(audit!, { team: 'db', pod: 'b' }));
  });
});

describe('treeProblems', () => {
  it('accepts a valid tree', () => expect(treeProblems(tree)).toEqual([]));
  it('refuses two roots, unknown parents, cycles, bad durations and label names', () => {
    const bad = [
      route('r', null),
      route('r2', null),
      route('x', 'nope'),
      route('c1', 'c2'),
      route('c2', 'c1'),
      route('d', 'r', { groupWait: 'soon', groupBy: ['bad-label'], repeatInterval: '0s' }),
    ];
    const msgs = treeProblems(bad).map((p) => `${p.loc.join('.')}: ${p.msg}`);
    expect(msgs.some((m) => m.includes('exactly one root'))).toBe(true);
    expect(msgs).toContain('routes.2.parentId: must name a route of this tree');
    expect(msgs.some((m) => m.startsWith('routes.3.parentId: forms a cycle'))).toBe(true);
    expect(msgs.some((m) => m.startsWith('routes.5.groupWait'))).toBe(true);
    expect(msgs.some((m) => m.startsWith('routes.5.groupBy'))).toBe(true);
    expect(msgs).toContain('routes.5.repeatInterval: must be more than zero');
  });
  it('refuses matchers on the root', () => {
    expect(treeProblems([route('r', null, { matchers: parseMatchers('a="b"') })])[0]!.loc).toEqual([
      'routes',
      '0',
      'matchers',
    ]);
  });
});

describe('parseAlertmanagerConfig', () => {
  it('maps match, match_re and matchers, and reports what it cannot map', () => {
    const p = parseAlertmanagerConfig(
      [
        'global: { resolve_timeout: 5m }',
        'route:',
        '  receiver: a',
        '  routes:',
        '    - match: { team: db }',
        '      match_re: { env: "prod|stage" }',
        '      receiver: b',
        '      unknown_field: 1',
        'receivers: [{ name: a }, { name: b, email_configs: [{ to: x@example.com }] }]',
        '',
      ].join('\n'),
    );
    expect(p.routes).toHaveLength(2);
    expect(p.routes[1]!.matchers).toEqual([
      { name: 'team', type: '=', value: 'db' },
      { name: 'env', type: '=~', value: 'prod|stage' },
    ]);
    expect(p.unmapped.join('\n')).toMatch(/global/);
    expect(p.unmapped.join('\n')).toMatch(/receivers\.b\.email_configs/);
    expect(p.unmapped.join('\n')).toMatch(/route\.routes\.0\.unknown_field/);
  });
  it('names the field of a bad matcher', () => {
    expect(() => parseAlertmanagerConfig('route:\n  matchers: ["a=~\\"(\\""]\n')).toThrow(/config\.route\.matchers\.0/);
  });
});
