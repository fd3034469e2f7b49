/**
 * Queries and mutations run compiled (graphql-jit) once their document has been seen before;
 * subscriptions, a document's first run, a document graphql-jit cannot compile, any run before graphql-jit
 * has loaded (on the first execution) and a run whose variables are refused stay on yoga's executor.
 *
 * Why: the dashboard query resolves some 1,800 fields; graphql-js builds a resolve info, a path link and
 * an argument object for each, scalars included, and answers in null-prototype objects that are slow to
 * serialise. The compiled form reads a plain column straight off the row and builds plain objects
 * (bench:graph). Compiling costs milliseconds, so a document is compiled on its second run: a query sent
 * once, or a stream of distinct ones, costs what it did. Yoga caches parsed documents by their text and
 * REST keeps one document per route, so "seen before" means the same document object (a WeakMap each,
 * so both go when yoga's cache drops the document).
 *
 * plugin-prisma needs graphql-js's shared response-path links; the stable-paths plugin
 * (schema/stable-paths.ts) gives them to the requests run here.
 */
import type { Plugin } from 'graphql-yoga';
import {
  BREAK,
  GraphQLError,
  getOperationAST,
  visit,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLSchema,
  type Source,
} from 'graphql';
import type { CompiledQuery } from 'graphql-jit';
import { canonicalizePaths } from '../../schema/stable-paths.js';
import { graphqlExecutions } from '../metrics.js';

const compiledRuns = graphqlExecutions.labels('compiled');
const interpretedRuns = graphqlExecutions.labels('interpreted');

/** Runs of a document on yoga's executor before it is compiled. */
export const RUNS_BEFORE_COMPILING = 1;

type Compiled = CompiledQuery | 'not compilable';

type Jit = typeof import('graphql-jit');

interface CompiledExecutionOptions {
  /** Told once per document graphql-jit refuses, or once if graphql-jit cannot be loaded (runs stay on yoga's executor). */
  onCompileError?: (errors: readonly Error[]) => void;
}

/**
 * graphql-jit writes an argument given in the document into the generated code as JSON, then turns any
 * JSON string of the form `"__MAGIC_DATE__<uuid><anything but a quote>"` into `new Date(<anything>)`
 * (its way of carrying Dates over): a string literal that spells that marker runs as code (checked: a query
 * with `action: "__MAGIC_DATE__…0)};globalThis.x=1;const y={a:(0"` set `globalThis.x` on its compiled
 * run). Its other markers (NaN, ±Infinity) turn such a string into a number. A document that contains any
 * of them, in its text or in a string literal after GraphQL's escapes (`\u005f` spellings), never compiles.
 */
const JIT_MARKER = '__MAGIC_';

function spellsJitMarker(document: DocumentNode): boolean {
  // In the text: names too (an object key of a JSON literal is a name, and is quoted in that JSON).
  if (document.loc?.source.body.includes(JIT_MARKER)) return true;
  let found = false;
  visit(document, {
    StringValue(node) {
      if (!node.value.includes(JIT_MARKER)) return undefined;
      found = true;
      return BREAK;
    },
  });
  return found;
}

/** The offset in `source` of a 1-based line and column. */
function positionOf(source: Source, { line, column }: { line: number; column: number }): number {
  let offset = 0;
  for (let l = 1; l < line; l++) offset = source.body.indexOf('\n', offset) + 1;
  return offset + column - 1;
}

/** True for a promise (or any thenable) rather than a ready value. */
function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown }).then === 'function';
}

/**
 * graphql-jit's errors as graphql-js raises them: graphql-jit's own error type carries `locations` but not
 * the source positions they come from, and every later step that rebuilds an error (the error mapping,
 * yoga's serialiser) derives locations from those, so they would be lost.
 */
function withLocatedErrors(result: ExecutionResult, document: DocumentNode): ExecutionResult {
  const source = document.loc?.source;
  if (!result.errors?.length || !source) return result;
  const errors = result.errors.map(
    (e) =>
      new GraphQLError(e.message, {
        source,
        positions: e.locations?.map((l) => positionOf(source, l)),
        path: e.path,
        originalError: e.originalError ?? undefined,
        extensions: e.extensions,
      }),
  );
  return { ...result, errors };
}

export function useCompiledExecution(options: CompiledExecutionOptions = {}): Plugin {
  /**
   * graphql-jit, loaded on the first execution rather than at start (its import is ~85 ms of a restart on a
   * slow machine, and nothing compiles before a document's second run anyway); until it has loaded, runs
   * stay interpreted.
   */
  let jit: Jit | undefined;
  let jitLoading: Promise<unknown> | undefined;
  function loadedJit(): Jit | undefined {
    jitLoading ??= import('graphql-jit').then(
      (m) => (jit = m),
      (err: Error) => options.onCompileError?.([err]),
    );
    return jit;
  }
  const runs = new WeakMap<DocumentNode, number>();
  /** Per schema (yoga may swap it), per document, per operation name. */
  const compiled = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, Compiled>>>();

  function compiledFor(jit: Jit, args: ExecutionArgs): Compiled {
    let bySchema = compiled.get(args.schema);
    if (!bySchema) compiled.set(args.schema, (bySchema = new WeakMap()));
    let byName = bySchema.get(args.document);
    if (!byName) bySchema.set(args.document, (byName = new Map()));
    const name = args.operationName ?? '';
    let entry = byName.get(name);
    if (!entry) {
      entry = spellsJitMarker(args.document) ? 'not compilable' : compile(jit, args);
      byName.set(name, entry);
    }
    return entry;
  }

  function compile(jit: Jit, args: ExecutionArgs): Compiled {
    const result = jit.compileQuery(args.schema, args.document, args.operationName ?? undefined);
    if (jit.isCompiledQuery(result)) return result;
    options.onCompileError?.(result.errors ?? []);
    return 'not compilable';
  }

  /** The compiled form of `args`' document, once it has been seen before and compiles. */
  function compiledRun(args: ExecutionArgs): CompiledQuery | undefined {
    const jit = loadedJit();
    const seen = runs.get(args.document) ?? 0;
    if (seen < RUNS_BEFORE_COMPILING || !jit) {
      runs.set(args.document, seen + 1);
      return undefined;
    }
    const entry = compiledFor(jit, args);
    return entry === 'not compilable' ? undefined : entry;
  }

  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const operation = getOperationAST(args.document, args.operationName);
      if (!operation || operation.operation === 'subscription') return;
      const entry = compiledRun(args);
      if (!entry) {
        interpretedRuns.inc();
        return;
      }
      setExecuteFn((a: ExecutionArgs) => {
        const release = canonicalizePaths(a.contextValue as object);
        const result = entry.query(a.rootValue, a.contextValue, a.variableValues);
        // Variables graphql-jit refuses come back at once, without `data` (no resolver ran): graphql-js
        // answers those, in its words, which the error mapping reads.
        if (!isThenable(result) && !('data' in result)) {
          release();
          interpretedRuns.inc();
          return executeFn(a);
        }
        compiledRuns.inc();
        return Promise.resolve(result).then((r) => withLocatedErrors(r, a.document));
      });
    },
  };
}
