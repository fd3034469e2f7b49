/**
 * The breaking-change guard (scripts/contract/guard.ts, docs/api-evolution.md): the tree's schema and
 * contract against the released baselines in contract/, and the guard's rules on copies changed in the
 * test (never in the tree): a removed GraphQL field and a removed REST response property fail it; the
 * same removals pass once deprecated with a removal date that has come, or with a major version and its
 * CHANGELOG section; additions pass.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildSchema, lexicographicSortSchema, parse, print, printSchema, visit } from 'graphql';
import { describe, expect, it } from 'vitest';
import { checkContract, readBaseline, type ContractSide } from '../scripts/contract/guard.js';
import { deprecationsWithoutDate } from '../scripts/contract/graphql-diff.js';
import { loadOpenApi } from '../rest/openapi.js';
import { serviceVersion } from '../src/version.js';
import { REPO_ROOT } from './helpers/cli.js';

const NOW = new Date('2026-11-28T12:00:00Z');
const changelog = fs.readFileSync(path.join(REPO_ROOT, 'CHANGELOG.md'), 'utf8');
const current = (): ContractSide => ({
  version: serviceVersion(),
  sdl: fs.readFileSync(path.join(REPO_ROOT, 'schema.graphql'), 'utf8'),
  openapi: loadOpenApi(),
});

/** The SDL without `Type.field`. */
function withoutField(sdl: string, typeName: string, field: string): string {
  const doc = visit(parse(sdl), {
    FieldDefinition: {
      enter: (node, _k, _p, _path, ancestors) => {
        const owner = ancestors.at(-1) as { name?: { value: string } } | undefined;
        return owner?.name?.value === typeName && node.name.value === field ? null : undefined;
      },
    },
  });
  return printSchema(lexicographicSortSchema(buildSchema(print(doc))));
}

/** The SDL with `Type.field` deprecated for `reason`. */
function deprecating(sdl: string, typeName: string, field: string, reason: string): string {
  const schema = buildSchema(sdl);
  const f = (
    schema.getType(typeName) as { getFields(): Record<string, { deprecationReason?: string | null }> }
  ).getFields()[field];
  f.deprecationReason = reason;
  // printSchema writes @deprecated from deprecationReason.
  return printSchema(schema);
}

describe('the breaking-change guard', () => {
  it('passes for the tree against the committed baseline', async () => {
    const result = await checkContract(readBaseline(), current(), changelog, NOW);
    expect(result.blocked).toEqual([]);
  });

  it('finds no deprecation without a removal date in the schema', () => {
    expect(deprecationsWithoutDate(current().sdl)).toEqual([]);
    expect(deprecationsWithoutDate('type Query { a: Int @deprecated(reason: "use b") b: Int }')).toEqual([
      'Query.a: "use b" names no "removal after <date>"',
    ]);
  });

  it('fails when a GraphQL field is removed without deprecation', async () => {
    const base = readBaseline();
    const result = await checkContract(
      base,
      { ...current(), sdl: withoutField(base.sdl, 'Alert', 'summary') },
      changelog,
      NOW,
    );
    expect(result.blocked).toContainEqual(
      expect.stringMatching(/^GraphQL Alert\.summary: .*removed.*not deprecated first/),
    );
  });

  it('fails when a REST response property is removed without deprecation', async () => {
    const base = readBaseline();
    const openapi = loadOpenApi();
    delete openapi.components.schemas.AlertsAlert.properties.summary;
    openapi.components.schemas.AlertsAlert.required = openapi.components.schemas.AlertsAlert.required.filter(
      (r: string) => r !== 'summary',
    );
    const result = await checkContract(base, { ...current(), openapi }, changelog, NOW);
    expect(result.blocked).toContainEqual(
      'REST GET /alerts response 200 body.items[].summary: property removed from the response (not deprecated first)',
    );
  });

  it('fails on a new required request property, a narrowed request enum and a removed operation', async () => {
    const base = readBaseline();
    const openapi = loadOpenApi();
    const params = openapi.paths['/alerts'].get.parameters as Array<Record<string, any>>;
    params.find((p) => p.name === 'status')!.schema.enum = ['open', 'any'];
    params.push({ name: 'team', in: 'query', required: true, schema: { type: 'string' } });
    delete openapi.paths['/alerts/{alertId}'].get;
    const result = await checkContract(base, { ...current(), openapi }, changelog, NOW);
    expect(result.blocked).toEqual(
      expect.arrayContaining([
        'REST GET /alerts parameter query.status: enum no longer accepts "acknowledged", "snoozed", "resolved" (not deprecated first)',
        'REST GET /alerts parameter query.team: parameter became required (not deprecated first)',
        'REST GET /alerts/{alertId}: operation removed (not deprecated first)',
      ]),
    );
  });

  it('lets a removal through once it was deprecated and its removal date has come, not before', async () => {
    const base = readBaseline();
    const gone = withoutField(base.sdl, 'Alert', 'summary');
    const past = { ...base, sdl: deprecating(base.sdl, 'Alert', 'summary', 'Use title; removal after 2026-11-01') };
    const future = { ...base, sdl: deprecating(base.sdl, 'Alert', 'summary', 'Use title; removal after 2027-03-01') };
    const ok = await checkContract(past, { ...current(), sdl: gone }, changelog, NOW);
    expect(ok.blocked.filter((b) => b.startsWith('GraphQL'))).toEqual([]);
    expect(ok.allowed).toContainEqual(expect.stringMatching(/^GraphQL Alert\.summary: .*removal after 2026-11-01/));
    const early = await checkContract(future, { ...current(), sdl: gone }, changelog, NOW);
    expect(early.blocked).toContainEqual(expect.stringMatching(/not removable before 2027-03-01/));

    // REST: `deprecated: true` on the old property, and an operation's x-sunset still ahead.
    const oldDoc = structuredClone(base.openapi);
    oldDoc.components.schemas.AlertsAlert.properties.summary.deprecated = true;
    const openapi = loadOpenApi();
    delete openapi.components.schemas.AlertsAlert.properties.summary;
    const rest = await checkContract({ ...base, openapi: oldDoc }, { ...current(), openapi }, changelog, NOW);
    expect(rest.blocked).toEqual([]);
    const sunsetAhead = structuredClone(base.openapi);
    Object.assign(sunsetAhead.paths['/alerts'].get, { deprecated: true, 'x-sunset': '2027-03-01' });
    const ahead = await checkContract({ ...base, openapi: sunsetAhead }, { ...current(), openapi }, changelog, NOW);
    expect(ahead.blocked).toContainEqual(expect.stringMatching(/^REST GET \/alerts .*x-sunset is 2027-03-01/));
  });

  it('lets every break through with a major version that has its CHANGELOG section, not without it', async () => {
    const base = readBaseline();
    const next = { ...current(), version: '2.0.0', sdl: withoutField(base.sdl, 'Alert', 'summary') };
    const withoutEntry = await checkContract(base, next, changelog, NOW);
    expect(withoutEntry.blocked.length).toBeGreaterThan(0);
    expect(withoutEntry.majorRelease).toBe(false);
    const entry = changelog.replace(
      '## [Unreleased]',
      '## [Unreleased]\n\n## [2.0.0] - 2027-03-02\n### Removed\n- Alert.summary',
    );
    const released = await checkContract(base, next, entry, NOW);
    expect(released.majorRelease).toBe(true);
    expect(released.blocked).toEqual([]);
  });

  it('lets additions through', async () => {
    const base = readBaseline();
    const sdl = base.sdl.replace('type Query {', 'type Query {\n  somethingNew: Int');
    const openapi = loadOpenApi();
    openapi.components.schemas.AlertsAlert.properties.brand_new = { type: 'string' };
    openapi.paths['/brand-new'] = { get: { responses: { '200': { description: 'ok' } } } };
    const result = await checkContract(base, { ...current(), sdl, openapi }, changelog, NOW);
    expect(result.blocked).toEqual([]);
  });
});
