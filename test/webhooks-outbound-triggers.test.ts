/** Trigger matching (pure): which announced changes each trigger selects. */
import { describe, expect, it } from 'vitest';
import { triggerMatches, validateTriggers, webhookWants } from '../src/webhooks/triggers.js';
import { conditionHolds } from '../src/events/match.js';
import { ValidationFailed } from '../src/errors.js';

const alert = (severity: string) => ({
  source: 'rules',
  kind: 'alert.opened',
  severity,
  labels: { team: 'core' },
  payload: { id: 'a1' },
});
const proposal = (kind: string) => ({
  source: 'sot',
  kind: 'proposal.approved',
  severity: 'info',
  labels: { proposal_kind: kind },
  payload: { proposal: { id: 'p1', kind } },
});
const event = (type: string, labels: Record<string, string>, payload: unknown) => ({
  source: 'ci',
  kind: type,
  severity: 'warning',
  labels,
  payload,
});

describe('webhook triggers', () => {
  it('alert triggers match their topic and severity filter', () => {
    const t = { on: 'ALERT_OPENED' as const, severities: ['critical' as const] };
    expect(triggerMatches(t, 'alert.opened', alert('critical'))).toBe(true);
    expect(triggerMatches(t, 'alert.opened', alert('warning'))).toBe(false);
    expect(triggerMatches(t, 'alert.resolved', alert('critical'))).toBe(false);
    expect(triggerMatches({ on: 'ALERT_RESOLVED' }, 'alert.resolved', alert('info'))).toBe(true);
  });

  it('proposal triggers filter by the proposal kind', () => {
    const t = { on: 'PROPOSAL_APPROVED' as const, kinds: ['firmware'] };
    expect(triggerMatches(t, 'proposal.approved', proposal('firmware'))).toBe(true);
    expect(triggerMatches(t, 'proposal.approved', proposal('config'))).toBe(false);
    expect(triggerMatches(t, 'proposal.denied', proposal('firmware'))).toBe(false);
  });

  it('the EVENT trigger matches type glob, labels and payload conditions together', () => {
    const t = {
      on: 'EVENT' as const,
      typeGlob: 'deploy.*',
      labels: { env: 'prod' },
      payloadConditions: [{ path: 'build.duration', op: 'gt' as const, value: 60 }],
    };
    expect(
      triggerMatches(t, 'event.received', event('deploy.finished', { env: 'prod' }, { build: { duration: 90 } })),
    ).toBe(true);
    expect(
      triggerMatches(t, 'event.received', event('deploy.finished', { env: 'dev' }, { build: { duration: 90 } })),
    ).toBe(false);
    expect(
      triggerMatches(t, 'event.received', event('deploy.finished', { env: 'prod' }, { build: { duration: 30 } })),
    ).toBe(false);
    expect(
      triggerMatches(t, 'event.received', event('backup.finished', { env: 'prod' }, { build: { duration: 90 } })),
    ).toBe(false);
    expect(
      webhookWants(
        [{ on: 'ALERT_OPENED' }, t],
        'event.received',
        event('deploy.x', { env: 'prod' }, { build: { duration: 61 } }),
      ),
    ).toBe(true);
  });

  it('globs mean what they mean in alert rules: * within one segment, ** across segments', () => {
    const matches = (typeGlob: string, type: string) =>
      triggerMatches({ on: 'EVENT', typeGlob }, 'event.received', event(type, {}, {}));
    expect(matches('deploy.*', 'deploy.started')).toBe(true);
    expect(matches('deploy.*', 'predeploy.started')).toBe(false);
    expect(matches('deploy.*', 'deploy.step.done')).toBe(false);
    expect(matches('deploy.**', 'deploy.step.done')).toBe(true);
    expect(matches('ci.?', 'ci.a')).toBe(true);
    expect(matches('a+b', 'aab')).toBe(false);
  });

  it('payload conditions (the matcher shared with alert rules)', () => {
    const p = { status: 'failed', tags: ['x', 'y'], n: 5, nested: { ok: false } };
    expect(conditionHolds(p, { path: 'status', op: 'eq', value: 'failed' })).toBe(true);
    expect(conditionHolds(p, { path: 'status', op: 'neq', value: 'failed' })).toBe(false);
    expect(conditionHolds(p, { path: 'status', op: 'in', value: ['ok', 'failed'] })).toBe(true);
    expect(conditionHolds(p, { path: 'tags', op: 'contains', value: 'y' })).toBe(true);
    expect(conditionHolds(p, { path: 'status', op: 'contains', value: 'fail' })).toBe(true);
    expect(conditionHolds(p, { path: 'n', op: 'lte', value: 5 })).toBe(true);
    expect(conditionHolds(p, { path: 'n', op: 'gt', value: '4' })).toBe(true); // numeric strings compare as numbers
    expect(conditionHolds(p, { path: 'status', op: 'gt', value: 1 })).toBe(false);
    expect(conditionHolds(p, { path: 'nested.ok', op: 'exists' })).toBe(true);
    expect(conditionHolds(p, { path: 'nested.missing', op: 'exists', value: false })).toBe(true);
  });

  it('validation rejects filters that do not apply to the trigger, naming each field', () => {
    try {
      validateTriggers([
        { on: 'ALERT_OPENED', kinds: ['x'] },
        { on: 'PROPOSAL_OPENED', typeGlob: 'x' },
        { on: 'EVENT', payloadConditions: [{ path: 'a', op: 'in', value: 1 }] },
      ]);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationFailed);
      expect((err as ValidationFailed).extra.fields?.map((f) => f.loc.join('.'))).toEqual([
        'input.triggers.0.kinds',
        'input.triggers.1.typeGlob',
        'input.triggers.2.payloadConditions.0.value',
      ]);
    }
    expect(validateTriggers([{ on: 'EVENT', severities: [], labels: {} }])).toEqual([{ on: 'EVENT' }]);
  });
});
