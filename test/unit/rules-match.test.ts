import { describe, expect, it } from 'vitest';
import {
  conditionHolds,
  eventMatches,
  globToRegExp,
  renderTemplate,
  templateProblems,
  typeMatches,
  type MatchableEvent,
  type RuleCriteria,
} from '../../src/events/match.js';

const ev: MatchableEvent = {
  type: 'deploy.started',
  module: 'ci',
  source: 'gha',
  severity: 'critical',
  summary: 'Deploy v42',
  labels: { env: 'prod', team: 'core' },
  payload: { version: 'v42', duration: 12.5, tags: ['canary', 'eu'], nested: { ok: true, count: '7' } },
};
const any: RuleCriteria = {
  typeGlob: null,
  severities: [],
  module: null,
  source: null,
  labels: {},
  payloadConditions: [],
};

describe('type globs', () => {
  it('matches one segment with * and many with **', () => {
    expect(typeMatches('deploy.*', 'deploy.started')).toBe(true);
    expect(typeMatches('deploy.*', 'deploy.step.done')).toBe(false);
    expect(typeMatches('deploy.**', 'deploy.step.done')).toBe(true);
    expect(typeMatches('deploy.*', 'deployx.started')).toBe(false);
    expect(typeMatches('*.started', 'deploy.started')).toBe(true);
    expect(typeMatches('deploy.?tarted', 'deploy.started')).toBe(true);
  });
  it('treats regex characters literally and anchors the whole type', () => {
    expect(globToRegExp('a+b').test('a+b')).toBe(true);
    expect(globToRegExp('a+b').test('aab')).toBe(false);
    expect(typeMatches('deploy', 'deploy.started')).toBe(false);
    expect(typeMatches(null, 'anything')).toBe(true);
  });
});

describe('payload conditions', () => {
  it('compares equality of scalars and objects', () => {
    expect(conditionHolds(ev.payload, { path: 'version', op: 'eq', value: 'v42' })).toBe(true);
    expect(conditionHolds(ev.payload, { path: 'version', op: 'neq', value: 'v41' })).toBe(true);
    expect(conditionHolds(ev.payload, { path: 'nested', op: 'eq', value: { ok: true, count: '7' } })).toBe(true);
    expect(conditionHolds(ev.payload, { path: 'nested.ok', op: 'eq', value: false })).toBe(false);
  });
  it('orders numbers, including numeric strings, and fails on non-numbers', () => {
    expect(conditionHolds(ev.payload, { path: 'duration', op: 'gt', value: 10 })).toBe(true);
    expect(conditionHolds(ev.payload, { path: 'duration', op: 'lte', value: 12.5 })).toBe(true);
    expect(conditionHolds(ev.payload, { path: 'duration', op: 'lt', value: 12.5 })).toBe(false);
    expect(conditionHolds(ev.payload, { path: 'nested.count', op: 'gte', value: 7 })).toBe(true);
    expect(conditionHolds(ev.payload, { path: 'version', op: 'gt', value: 1 })).toBe(false);
  });
  it('checks contains on strings and arrays, and exists both ways', () => {
    expect(conditionHolds(ev.payload, { path: 'version', op: 'contains', value: '4' })).toBe(true);
    expect(conditionHolds(ev.payload, { path: 'tags', op: 'contains', value: 'eu' })).toBe(true);
    expect(conditionHolds(ev.payload, { path: 'tags', op: 'contains', value: 'us' })).toBe(false);
    expect(conditionHolds(ev.payload, { path: 'tags.0', op: 'eq', value: 'canary' })).toBe(true);
    expect(conditionHolds(ev.payload, { path: 'missing', op: 'exists' })).toBe(false);
    expect(conditionHolds(ev.payload, { path: 'missing', op: 'exists', value: false })).toBe(true);
    expect(conditionHolds(ev.payload, { path: 'nested.ok', op: 'exists' })).toBe(true);
  });
  it('never satisfies a comparison on a missing value, neq included', () => {
    expect(conditionHolds(ev.payload, { path: 'missing', op: 'neq', value: 'x' })).toBe(false);
    expect(conditionHolds(ev.payload, { path: 'missing.deeper', op: 'eq', value: undefined })).toBe(false);
  });
});

describe('eventMatches', () => {
  it('matches when every set criterion holds', () => {
    expect(eventMatches(any, ev)).toBe(true);
    expect(
      eventMatches(
        {
          ...any,
          typeGlob: 'deploy.*',
          severities: ['critical'],
          module: 'ci',
          source: 'gha',
          labels: { env: 'prod' },
          payloadConditions: [{ path: 'duration', op: 'gt', value: 1 }],
        },
        ev,
      ),
    ).toBe(true);
  });
  it('rejects on any single failing criterion', () => {
    expect(eventMatches({ ...any, severities: ['info', 'warning'] }, ev)).toBe(false);
    expect(eventMatches({ ...any, module: 'cd' }, ev)).toBe(false);
    expect(eventMatches({ ...any, source: 'other' }, ev)).toBe(false);
    expect(eventMatches({ ...any, labels: { env: 'staging' } }, ev)).toBe(false);
    expect(eventMatches({ ...any, labels: { region: 'eu' } }, ev)).toBe(false);
    expect(eventMatches({ ...any, payloadConditions: [{ path: 'version', op: 'eq', value: 'v1' }] }, ev)).toBe(false);
    expect(eventMatches({ ...any, typeGlob: 'heartbeat' }, ev)).toBe(false);
  });
});

describe('templates', () => {
  it('renders event fields, payload and label paths, and the rule name', () => {
    const vars = { ...ev, rule: { id: 'r1', name: 'Deploys' } };
    expect(renderTemplate('{{type}} on {{source}}', vars)).toBe('deploy.started on gha');
    expect(renderTemplate('{{ payload.version }} / {{labels.env}} / {{rule.name}}', vars)).toBe('v42 / prod / Deploys');
    expect(renderTemplate('{{payload.nested}}', vars)).toBe('{"ok":true,"count":"7"}');
    expect(renderTemplate('[{{payload.missing}}]', vars)).toBe('[]');
  });
  it('reports unknown placeholders and unbalanced braces', () => {
    expect(templateProblems('{{type}} on {{source}}')).toEqual([]);
    expect(templateProblems('{{tenant.id}}')[0]).toMatch(/unknown placeholder/);
    expect(templateProblems('{{type} oops')[0]).toMatch(/unbalanced/);
    expect(templateProblems('{{ }}')[0]).toMatch(/not a placeholder/);
  });
});
