/**
 * The pure parts of triage ranking: entity classes and normalization, the change vocabulary, the
 * relations, the score and the confidence thresholds.
 */
import { describe, expect, it } from 'vitest';
import { dedupKeysOf, entitiesOf, normalizeEntity } from '../../src/assistant/entities.js';
import { confidenceOf, relationsOf, scoreOf, timeFactor, type AlertSide } from '../../src/assistant/relatedness.js';
import { isChangeType, precursorOf, termMatches, vocabulary } from '../../src/assistant/vocabulary.js';

const side = (labels: Record<string, string>, extra: Partial<AlertSide> = {}): AlertSide => ({
  deviceId: null,
  deviceName: null,
  sources: new Set(['mon']),
  entities: entitiesOf(labels, null),
  symptomText: 'job.failed',
  ...extra,
});

describe('entities', () => {
  it('treats instance, host and fully qualified names as one machine', () => {
    expect(normalizeEntity('machine', 'web-1:9100')).toBe('web-1');
    expect(normalizeEntity('machine', 'Web-1.dc1.example.com')).toBe('web-1');
    expect(normalizeEntity('machine', '10.0.0.7:9100')).toBe('10.0.0.7');
  });
  it('reads labels, top-level payload keys and payload.labels; a GPU index alone names no GPU', () => {
    const e = entitiesOf({ service: 'checkout', gpu: '0' }, { node: 'n1', labels: { pod: 'p-1' }, note: 'x' });
    expect(e.map((x) => `${x.cls}:${x.norm}:${x.via}`)).toEqual([
      'service:checkout:label',
      'machine:n1:payload',
      'pod:p-1:payload',
    ]);
  });
  it("takes the rule's dedup labels as keys of their own", () => {
    expect(dedupKeysOf('shop:{{labels.tenant_slug}}:{{payload.Shard}}')).toEqual(['tenant_slug', 'shard']);
    expect(entitiesOf({ tenant_slug: 'acme' }, null, ['tenant_slug'])[0]).toMatchObject({
      cls: 'dedup:tenant_slug',
      strength: 'specific',
    });
  });
});

describe('change vocabulary', () => {
  it('matches words as token prefixes and globs over the whole type', () => {
    for (const t of [
      'deploy.started',
      'app.deployed',
      'k8s.rollout.done',
      'feature_flag.toggled',
      'featureFlag.changed',
      'db.migration.applied',
      'secret.updated',
      'svc.restarted',
      'hpa.scaled',
    ])
      expect(isChangeType(vocabulary(), t), t).toBe(true);
    for (const t of ['app.error', 'job.failed', 'gpu.xid', 'http.5xx'])
      expect(isChangeType(vocabulary(), t), t).toBe(false);
    expect(termMatches('*.toggled', 'x.toggled')).toBe(true);
    expect(isChangeType(vocabulary(['canary']), 'canary.started')).toBe(true);
    expect(isChangeType(vocabulary(), 'canary.started')).toBe(false);
  });
  it('knows precursor faults', () => {
    expect(precursorOf('gpu.xid')?.symptoms).toContain('job');
    expect(precursorOf('net.interface_down')).not.toBeNull();
    expect(precursorOf('deploy.started')).toBeNull();
  });
});

describe('relations and score', () => {
  it('gives an unrelated change no relation and score 0, whatever its time', () => {
    const r = relationsOf(side({ service: 'checkout' }), {
      deviceId: null,
      source: 'ci',
      entities: entitiesOf({ service: 'search' }, null),
      minutesBefore: 0,
      precursor: null,
    });
    expect(r).toEqual([]);
    expect(scoreOf(r, 0)).toBe(0);
    expect(confidenceOf(0)).toBeNull();
  });
  it('states the shared label and ranks a specific entity above a broad one', () => {
    const a = side({ service: 'checkout', namespace: 'shop' });
    const specific = relationsOf(a, {
      deviceId: null,
      source: 'ci',
      entities: entitiesOf({ app: 'checkout' }, null),
      minutesBefore: 2,
      precursor: null,
    });
    const broad = relationsOf(a, {
      deviceId: null,
      source: 'ci',
      entities: entitiesOf({ namespace: 'shop' }, null),
      minutesBefore: 2,
      precursor: null,
    });
    expect(specific[0]).toMatchObject({ kind: 'shared_label', detail: 'same app=checkout label' });
    expect(confidenceOf(scoreOf(specific, 2))).toBe('high');
    expect(confidenceOf(scoreOf(broad, 2))).toBe('low');
  });
  it('adds the precursor bonus only to a related fault that fits the symptom', () => {
    const xid = precursorOf('gpu.xid');
    const a = side({ node: 'gn-7' });
    expect(
      relationsOf(a, {
        deviceId: null,
        source: 'gpu/gn-8',
        entities: entitiesOf({ node: 'gn-8' }, null),
        minutesBefore: 1,
        precursor: xid,
      }),
    ).toEqual([]);
    expect(
      relationsOf(a, {
        deviceId: null,
        source: 'gpu/gn-7',
        entities: entitiesOf({ node: 'gn-7' }, null),
        minutesBefore: 1,
        precursor: xid,
      }).map((r) => r.kind),
    ).toEqual(['shared_label', 'precursor']);
  });
  it('decays with time but never below half, so time only breaks ties', () => {
    expect(timeFactor(0)).toBe(1);
    expect(timeFactor(30)).toBeCloseTo(0.75);
    expect(timeFactor(10_000)).toBeGreaterThanOrEqual(0.5);
    const rel = [{ kind: 'shared_label' as const, detail: '', weight: 60 }];
    expect(scoreOf(rel, 10_000)).toBe(30);
    expect(confidenceOf(50)).toBe('high');
    expect(confidenceOf(49)).toBe('medium');
    expect(confidenceOf(25)).toBe('medium');
    expect(confidenceOf(24)).toBe('low');
  });
});
