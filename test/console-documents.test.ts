/**
 * Every GraphQL document in the console (console/src, written as graphql(`…`) literals) is valid against the
 * printed schema.graphql and within the server's document limits (nodes counted from page sizes, depth), so the console cannot
 * drift from the API: a renamed field or argument, or a page asking for too much, fails here, not in a
 * user's browser. Fragments may be shared across files by `${Fragment}` interpolation.
 */
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildSchema,
  parse,
  specifiedRules,
  validate,
  visit,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
} from 'graphql';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { formatDocument } from 'urql';
import { MAX_QUERY_NODES, queryCostError } from '../src/http/query-cost.js';
import { MAX_QUERY_DEPTH } from '../src/server/graphql.js';
import { fragmentExpansionRefusal } from '../src/server/graphql-expansion.js';

const root = path.resolve(import.meta.dirname, '..');
const schema = buildSchema(fs.readFileSync(path.join(root, 'schema.graphql'), 'utf8'));

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(p);
    return /\.(ts|tsx)$/.test(d.name) ? [p] : [];
  });
}

/** The graphql(`…`) (or gql`…`) literals of a file, with `${…}` interpolations removed. */
function documentsIn(file: string): { file: string; doc: DocumentNode }[] {
  const text = fs.readFileSync(file, 'utf8');
  const found: { file: string; doc: DocumentNode }[] = [];
  for (const m of text.matchAll(/\b(?:graphql\(|gql(?:<[^`]*?>)?)`([^`]*)`/gs)) {
    found.push({ file: path.relative(root, file), doc: parse(m[1].replace(/\$\{[^}]*\}/g, '')) });
  }
  return found;
}

const rules = [
  ...specifiedRules,
  maxDepthRule({ n: MAX_QUERY_DEPTH, ignoreIntrospection: true, flattenFragments: true }),
];
const docs = sourceFiles(path.join(root, 'console/src')).flatMap(documentsIn);
const fragments = new Map<string, FragmentDefinitionNode>();
for (const { doc } of docs)
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);

/**
 * Validation messages, then the server's node limit counted with the page sizes as written (variables
 * left unset count at their defaults, as when the console sends none); the armor rules throw their refusal.
 */
function problems(doc: DocumentNode): string[] {
  try {
    const overLimits = fragmentExpansionRefusal(doc);
    if (overLimits) return [overLimits.message];
    const invalid = validate(schema, doc, rules).map((e) => e.message);
    const tooComplex = queryCostError(schema, doc);
    return tooComplex ? [...invalid, tooComplex.message] : invalid;
  } catch (err) {
    return [(err as Error).message];
  }
}

/** The operation with every fragment it uses, transitively. */
function withFragments(op: OperationDefinitionNode): DocumentNode {
  const needed = new Map<string, FragmentDefinitionNode>();
  const walk = (node: OperationDefinitionNode | FragmentDefinitionNode) =>
    visit(node, {
      FragmentSpread(s) {
        const f = fragments.get(s.name.value);
        if (f && !needed.has(f.name.value)) {
          needed.set(f.name.value, f);
          walk(f);
        }
      },
    });
  walk(op);
  return { kind: Kind.DOCUMENT, definitions: [op, ...needed.values()] };
}

describe('console GraphQL documents', () => {
  it('finds the console documents', () => {
    expect(docs.length).toBeGreaterThan(10);
  });

  const operations = docs.flatMap(({ file, doc }) =>
    doc.definitions
      .filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)
      .map((op) => ({ file, op })),
  );

  it('names every operation once', () => {
    const names = operations.map(({ op }) => op.name?.value);
    expect(names.filter((n) => !n)).toEqual([]);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  for (const { file, op } of operations) {
    it(`${op.name?.value ?? '(anonymous)'} in ${file} validates against schema.graphql and the limits`, () => {
      // As sent: urql adds __typename to every selection set (its cache needs it), which counts in the cost.
      const errors = problems(formatDocument(withFragments(op)) as DocumentNode);
      expect(errors).toEqual([]);
    });
  }

  it('fails on a document that drifted from the schema (the check can fail)', () => {
    const drifted = parse('query Drifted { alerts { edges { node { id noSuchField } } } }');
    expect(problems(drifted).join()).toMatch(/noSuchField/);
  });

  it(`fails on a document asking for more than ${MAX_QUERY_NODES} nodes (the check can fail)`, () => {
    // 100 devices (the assumed default page) × 100 alerts each.
    const costly = parse(
      'query Costly { devices { edges { node { alerts(first: 100) { edges { node { id } } } } } } }',
    );
    expect(problems(costly).join()).toMatch(/may return 10100 nodes; the limit is 5000/);
  });

  it('type-checks the console against the types gql.tada infers from schema.graphql', () => {
    // Regenerate the schema's types (src/graphql-env.d.ts, not committed) and run tsc on the console:
    // a document's result used as a field the schema no longer has fails here.
    const bin = (pkg: string, file: string) => path.join(root, 'node_modules', pkg, file);
    const gen = spawnSync(
      process.execPath,
      [bin('gql.tada', 'bin/cli.js'), 'generate', 'output', '--tsconfig', 'console/tsconfig.json'],
      { cwd: root, encoding: 'utf8' },
    );
    expect(gen.status, gen.stderr + gen.stdout).toBe(0);
    const tsc = spawnSync(process.execPath, [bin('typescript', 'bin/tsc'), '--noEmit', '-p', 'console'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 180_000);
});
