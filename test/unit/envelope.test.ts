import { describe, expect, it } from 'vitest';
import { parseEnvelope } from '../../src/events/envelope.js';
import { ValidationFailed } from '../../src/errors.js';
import { eventWhere, globMatches, matchesEventFilter } from '../../src/events/filter.js';
import { v7 as uuidv7, validate, version } from 'uuid';

function problems(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationFailed);
    return (err as ValidationFailed).extra.fields!.map((f) => `${f.loc.join('.')}: ${f.msg}`);
  }
  throw new Error('expected a ValidationFailed');
}

describe('parseEnvelope', () => {
  it('maps shape A, dropping tenant_id and defaulting labels and payload', () => {
    expect(
      parseEnvelope(
        {
          type: 'deploy.started',
          module: 'ci',
          source: 'gha',
          summary: ' Started ',
          severity: 'critical',
          tenant_id: 'x',
        },
        'events',
      ),
    ).toEqual({
      type: 'deploy.started',
      module: 'ci',
      source: 'gha',
      summary: 'Started',
      severity: 'critical',
      labels: {},
      payload: {},
    });
  });

  it('maps shape B: kind is the type, severity defaults to info, summary from payload.summary or the type', () => {
    expect(
      parseEnvelope(
        { source: 'r1', kind: 'build.done', labels: { env: 'prod' }, payload: { summary: 'Build done' } },
        'webhook',
      ),
    ).toMatchObject({
      type: 'build.done',
      severity: 'info',
      labels: { env: 'prod' },
      summary: 'Build done',
      module: null,
    });
    expect(parseEnvelope({ source: 'r1', kind: 'heartbeat' }, 'events').summary).toBe('heartbeat');
  });

  it('accepts type and kind together when they agree, and labels in shape A', () => {
    expect(parseEnvelope({ type: 'a.b', kind: 'a.b', source: 's', labels: { k: 'v' } }, 'events')).toMatchObject({
      type: 'a.b',
      labels: { k: 'v' },
    });
  });

  it('lists every problem: missing fields, bad enum, unknown field, non-string label, non-object payload', () => {
    const p = problems(() =>
      parseEnvelope({ severity: 'fatal', sevrity: 'critical', labels: { n: 1 }, payload: [1] }, 'events'),
    );
    expect(p).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^type: is required/),
        expect.stringMatching(/^source: is required/),
        expect.stringMatching(/^severity: must be one of/),
        expect.stringMatching(/^sevrity: is not a field/),
        expect.stringMatching(/^labels\.n: must be a string/),
        expect.stringMatching(/^payload: must be a JSON object/),
      ]),
    );
  });

  it('rejects disagreeing type and kind, over-long fields, and type on a webhook', () => {
    expect(problems(() => parseEnvelope({ type: 'a', kind: 'b', source: 's' }, 'events'))).toEqual([
      expect.stringMatching(/^kind: differs/),
    ]);
    expect(problems(() => parseEnvelope({ type: 'a'.repeat(201), source: 's' }, 'events'))).toEqual([
      expect.stringMatching(/^type: must be at most 200/),
    ]);
    expect(problems(() => parseEnvelope({ type: 'a.b', source: 's' }, 'webhook'))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^type: inbound webhooks take shape B/),
        expect.stringMatching(/^kind: is required/),
      ]),
    );
    expect(problems(() => parseEnvelope([], 'events'))).toEqual([': must be a JSON object']); // loc [] is the whole document
  });
});

describe('event filters', () => {
  const ev = {
    type: 'deploy.started',
    module: 'ci',
    source: 'gha',
    summary: 'Deploy of API',
    severity: 'warning',
    labels: { env: 'prod', team: 'core' },
    receivedAt: new Date(),
  };

  it('matches * globs anchored at both ends', () => {
    expect(globMatches('deploy.*', 'deploy.started')).toBe(true);
    expect(globMatches('deploy.*', 'predeploy.started')).toBe(false);
    expect(globMatches('*.started', 'deploy.started')).toBe(true);
    expect(globMatches('d*y.*d', 'deploy.started')).toBe(true);
    expect(globMatches('ab*ba', 'aba')).toBe(false);
    expect(globMatches('deploy', 'deploy.started')).toBe(false);
  });

  it('matches live events with the same semantics as the query', () => {
    expect(
      matchesEventFilter(
        ev,
        {
          type: 'deploy.*',
          severities: ['warning'],
          labels: { env: 'prod' },
          search: 'api',
          module: 'ci',
          source: 'gha',
          sinceHours: 1,
        },
        new Date(),
      ),
    ).toBe(true);
    expect(matchesEventFilter(ev, { labels: { env: 'staging' } }, new Date())).toBe(false);
    expect(matchesEventFilter(ev, { severities: ['critical'] }, new Date())).toBe(false);
    expect(
      matchesEventFilter({ ...ev, receivedAt: new Date(Date.now() - 2 * 3600_000) }, { sinceHours: 1 }, new Date()),
    ).toBe(false);
  });

  it('compiles globs and labels into Prisma conditions', () => {
    expect(eventWhere({ type: 'deploy.*', labels: { env: 'prod' } }, new Date())).toEqual({
      AND: [{ AND: [{ type: { startsWith: 'deploy.' } }] }, { labels: { path: ['env'], equals: 'prod' } }],
    });
    expect(eventWhere({}, new Date())).toEqual({});
  });
});

// Event ids are uuid's v7 (src/events/ingest.ts); SSE `Last-Event-ID` replay relies on their order.
describe('event ids (uuid v7)', () => {
  it('are valid v7 ids, strictly increasing within a process even inside one millisecond, carrying their millisecond', () => {
    const before = Date.now();
    const ids = Array.from({ length: 5000 }, () => uuidv7());
    const after = Date.now();
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => validate(id) && version(id) === 7)).toBe(true);
    const ms = parseInt(ids[0].slice(0, 8) + ids[0].slice(9, 13), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(after);
    expect(validate('not-a-uuid')).toBe(false);
  });
});
