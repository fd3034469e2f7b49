/**
 * The report query language without a database: validation (with REST paths), compilation (tenant
 * predicate always first, user text only ever in parameters) and the built-in translator.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateReportQuery, outputColumns, REPORT_LIMITS } from '../../src/reports/validate.js';
import { compileReportQuery } from '../../src/reports/compile.js';
import { CATALOGUE, ENTITIES } from '../../src/reports/catalogue.js';
import { builtinTranslator, translateReport } from '../../src/reports/translate.js';

const TENANT = '0192f1d2-0000-7000-8000-000000000001';
/** A fixed "now" for the report window (the service passes rt.clock's). */
const NOW = new Date('2026-11-25T03:38:00.000Z');

function valid(input: unknown, mode: 'query' | 'export' = 'query') {
  const v = validateReportQuery(input, { mode });
  if (!v.query) throw new Error(JSON.stringify(v.problems));
  return v.query;
}
function problems(input: unknown) {
  const v = validateReportQuery(input);
  return v.problems.map((p) => p.loc.join('.'));
}

describe('validateReportQuery', () => {
  it('fills in the defaults of the contract', () => {
    const q = valid({ entity: 'events' });
    expect(q).toMatchObject({
      since_hours: 24,
      limit: 1000,
      filters: [],
      aggregate: [],
      columns: CATALOGUE.events.defaultColumns,
    });
    expect(valid({ entity: 'events' }, 'export').limit).toBe(REPORT_LIMITS.maxExportRows);
  });

  it('names the path of an unknown entity, field, op and a value of the wrong type', () => {
    expect(problems({ entity: 'users' })).toEqual(['query.entity']);
    expect(
      problems({
        entity: 'alerts',
        filters: [
          { field: 'severity', op: 'eq', value: 'critical' },
          { field: 'severity', op: 'like', value: 'x' },
          { field: 'nope', op: 'eq', value: 1 },
          { field: 'count', op: 'gt', value: 'many' },
          { field: 'severity', op: 'eq', value: 'fatal' },
          { field: 'severity', op: 'in', value: ['info', 7] },
          { field: 'payload.env', op: 'eq', value: 'x' }, // alerts have labels but no payload
        ],
      }),
    ).toEqual([
      'query.filters.1.op',
      'query.filters.2.field',
      'query.filters.3.value',
      'query.filters.4.value',
      'query.filters.5.value.1',
      'query.filters.6.field',
    ]);
  });

  it('checks ops per field type, labels and payload path grammar', () => {
    expect(problems({ entity: 'events', filters: [{ field: 'received_at', op: 'contains', value: 'x' }] })).toEqual([
      'query.filters.0.op',
    ]);
    expect(problems({ entity: 'events', filters: [{ field: 'payload.a..b', op: 'eq', value: 1 }] })).toEqual([
      'query.filters.0.field',
    ]);
    expect(problems({ entity: 'events', filters: [{ field: 'labels.a b', op: 'eq', value: 'x' }] })).toEqual([
      'query.filters.0.field',
    ]);
    expect(
      problems({
        entity: 'events',
        filters: [
          { field: 'payload.build.sha', op: 'prefix', value: 'ab' },
          { field: 'labels.app.kubernetes.io/name', op: 'in', value: ['web'] },
        ],
      }),
    ).toEqual([]);
  });

  it('bounds since_hours and limit, and allows no window only where the contract does', () => {
    expect(problems({ entity: 'events', since_hours: REPORT_LIMITS.maxSinceHours + 1, limit: 10_001 })).toEqual([
      'query.since_hours',
      'query.limit',
    ]);
    expect(problems({ entity: 'events', since_hours: null })).toEqual(['query.since_hours']);
    expect(valid({ entity: 'devices', since_hours: null }).since_hours).toBeNull();
    expect(validateReportQuery({ entity: 'events', limit: 500_000 }, { mode: 'export' }).problems).toEqual([]);
  });

  it('derives aggregate output columns and only orders by them', () => {
    const q = valid({
      entity: 'alerts',
      group_by: ['severity'],
      bucket: '1d',
      order_by: [{ field: 'bucket', dir: 'asc' }],
    });
    expect(outputColumns(q)).toEqual([
      { name: 'bucket', type: 'timestamp' },
      { name: 'severity', type: 'string' },
      { name: 'count', type: 'integer' },
    ]);
    expect(problems({ entity: 'alerts', group_by: ['severity'], order_by: [{ field: 'summary' }] })).toEqual([
      'query.order_by.0.field',
    ]);
    expect(problems({ entity: 'alerts', aggregate: [{ fn: 'avg', field: 'severity' }] })).toEqual([
      'query.aggregate.0.field',
    ]);
    expect(problems({ entity: 'alerts', group_by: ['summary'] })).toEqual(['query.group_by.0']);
    expect(problems({ entity: 'alerts', aggregate: 'count', columns: ['id'] })).toEqual(['query.columns']);
  });
});

describe('compileReportQuery', () => {
  it('puts the tenant predicate first, as $1, for every entity', () => {
    for (const entity of ENTITIES) {
      const c = compileReportQuery(
        valid({ entity, ...(CATALOGUE[entity].windowOptional ? { since_hours: null } : {}) }),
        TENANT,
        { now: NOW },
      );
      expect(c.sql).toMatch(/ FROM "[A-Za-z]+" t WHERE t\."tenantId" = \$1( AND | GROUP | ORDER )/);
      expect(c.params[0]).toBe(TENANT);
    }
    expect(() => compileReportQuery(valid({ entity: 'events' }), '', { now: NOW })).toThrow(/tenant/);
  });

  it('never puts caller text into the SQL: values, label keys and payload paths are parameters', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9_./-]{1,30}$/),
        fc.string({ maxLength: 50 }),
        fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/),
        (key, value, seg) => {
          const q = valid({
            entity: 'events',
            filters: [
              { field: `labels.${key}`, op: 'eq', value },
              { field: `payload.${seg}`, op: 'contains', value },
              { field: 'source', op: 'in', value: [value] },
            ],
            group_by: [`labels.${key}`],
          });
          const c = compileReportQuery(q, TENANT, { now: NOW });
          const sqlWithoutQuoted = c.sql.replace(/"[A-Za-z]+"/g, '');
          // Only catalogue text: a marker value cannot appear unless it is also a catalogue word.
          if (value.length > 3 && !/^[a-z_ ]+$/i.test(value)) expect(sqlWithoutQuoted.includes(value)).toBe(false);
          expect(c.params).toContain(key);
          expect(c.params).toContain(value);
          expect(c.sql).not.toContain(`labels.${key}`);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('buckets on the entity time field and orders buckets ascending by default', () => {
    const c = compileReportQuery(valid({ entity: 'alerts', bucket: '1d', group_by: ['severity'] }), TENANT, {
      now: NOW,
    });
    expect(c.sql).toContain(`date_bin('1 day'::interval, t."createdAt"`);
    expect(c.sql).toMatch(/GROUP BY 1, 2 ORDER BY 1 ASC/);
    expect(c.params.at(-1)).toBe(1000);
    expect(compileReportQuery(valid({ entity: 'alerts' }), TENANT, { now: NOW, extraRow: true }).params.at(-1)).toBe(
      1001,
    );
  });
});

describe('built-in translator', () => {
  it.each([
    [
      'critical alerts in the last 24 hours',
      { entity: 'alerts', since_hours: 24, filters: [{ field: 'severity', op: 'eq', value: 'critical' }] },
    ],
    [
      'critical alerts in the last 24 hours by source',
      { entity: 'alerts', since_hours: 24, group_by: ['source'], aggregate: [{ fn: 'count' }] },
    ],
    [
      'events from ci per day this week',
      { entity: 'events', since_hours: 168, bucket: '1d', filters: [{ field: 'source', op: 'eq', value: 'ci' }] },
    ],
    [
      'top 10 devices by open proposals',
      {
        entity: 'devices',
        since_hours: null,
        limit: 10,
        columns: ['name', 'open_proposals'],
        order_by: [{ field: 'open_proposals', dir: 'desc' }],
      },
    ],
    [
      'critical alerts from db hosts in the last 24 hours',
      {
        entity: 'alerts',
        filters: [
          { field: 'severity', op: 'eq', value: 'critical' },
          { field: 'source', op: 'prefix', value: 'db' },
        ],
      },
    ],
  ])('translates %j into a valid query', async (text, expected) => {
    const r = await translateReport(text);
    expect(r.errors).toEqual([]);
    expect(r.valid).toBe(true);
    expect(r.query).toMatchObject(expected);
    expect(r.explanation).toMatch(/^Reads as/);
  });

  it('is deterministic and says when it finds nothing to report on', async () => {
    expect(await builtinTranslator.translate('events per hour')).toEqual(
      await builtinTranslator.translate('events per hour'),
    );
    const r = await translateReport('what is the weather');
    expect(r).toMatchObject({ valid: false, query: null });
    expect(r.errors[0].loc).toEqual(['text']);
  });

  it('validates whatever a translator answers', async () => {
    const inventing = {
      name: 'inventing',
      translate: async () => ({ query: { entity: 'users', filters: [] }, explanation: 'made up' }),
    };
    const r = await translateReport('anything', inventing);
    expect(r.valid).toBe(false);
    expect(r.errors.map((e) => e.loc.join('.'))).toEqual(['query.entity']);
  });
});

describe('utcIso (timestamp decoding of the reports pool)', () => {
  it('turns Postgres UTC timestamps into ISO-8601 with milliseconds, like Date#toISOString', async () => {
    const { utcIso } = await import('../../src/reports/pool.js');
    for (const [pgText, iso] of [
      ['2026-11-23 14:00:01.5', '2026-11-23T14:00:01.500Z'],
      ['2026-11-23 14:00:01.123', '2026-11-23T14:00:01.123Z'],
      ['2026-11-23 14:00:01', '2026-11-23T14:00:01.000Z'],
      ['2026-01-02 03:04:05.06', '2026-01-02T03:04:05.060Z'],
    ]) {
      expect(utcIso(pgText)).toBe(iso);
      expect(utcIso(pgText)).toBe(new Date(pgText.replace(' ', 'T') + 'Z').toISOString());
    }
  });
});
