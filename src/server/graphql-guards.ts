/**
 * Boundary rules of the GraphQL endpoint (HTTP and graphql-ws), as yoga/envelop plugins:
 *
 * - a token limit applied while parsing (graphql-armor max-tokens), so a 5,000-level document or one
 *   field repeated 20,000 times is refused after MAX_QUERY_TOKENS tokens, before the recursive parser
 *   or any validation rule walks it; like every limit refusal, a 400 naming the limit for every client;
 * - fragment limits before validation (graphql-expansion.ts): spreads counted and each fragment's
 *   expansion measured once, so a fragment bomb is refused before any validation rule expands it;
 * - a node limit before execution (src/http/query-cost.ts): nodes counted from page sizes, with the
 *   variables' values, refused as QUERY_TOO_COMPLEX with the cost and the limit;
 * - string literals in the document follow the same text rule as JSON input (no NUL, no unpaired
 *   surrogate; src/http/input-guards.ts);
 * - introspection follows config.introspection (public | authenticated | off), and a caller it is refused
 *   to gets no "Did you mean …" hints either (they name the schema's fields);
 * - errors Pothos raises for bad arguments (negative `first`, a malformed cursor) are BAD_USER_INPUT.
 */
import { GraphQLError, visit, type DocumentNode, type ExecutionArgs, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { PothosValidationError } from '@pothos/core';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import type { Runtime } from '../runtime.js';
import type { Ctx } from '../context.js';
import { safeLiteralsRule } from '../http/input-guards.js';
import { graphqlErrorFromDomain, variableCoercionExtensions } from '../http/error-mapping.js';
import { queryCostError } from '../http/query-cost.js';
import { expansionError, fragmentExpansionRefusal } from './graphql-expansion.js';
import type { IntrospectionPolicy } from '../config.js';
import type { Principal } from '../principal.js';

/** Lexical tokens in one document (the full introspection query has about 160, the dashboard 72). */
export const MAX_QUERY_TOKENS = 3000;

function selectsIntrospection(doc: DocumentNode): boolean {
  let found = false;
  visit(doc, {
    Field(node) {
      if (node.name.value === '__schema' || node.name.value === '__type') {
        found = true;
        return false;
      }
      return undefined;
    },
  });
  return found;
}

/** Whether the caller may see the schema: anyone (`public`), a caller with a credential (`authenticated`), nobody (`off`). */
export function introspectionAllowed(policy: IntrospectionPolicy, principal: Principal | null | undefined): boolean {
  return policy === 'public' || (policy === 'authenticated' && !!principal);
}

function introspectionPolicyPlugin(rt: Runtime): Plugin<Ctx> {
  const policy = rt.config.introspection;
  return {
    onExecute({ args, setResultAndStopExecution }) {
      if (policy === 'public' || !selectsIntrospection(args.document)) return;
      if (introspectionAllowed(policy, (args.contextValue as Ctx).principal)) return;
      const error =
        policy === 'off'
          ? new GraphQLError('Introspection is turned off on this server.', { extensions: { code: 'FORBIDDEN' } })
          : new GraphQLError('Introspection needs a credential: send Authorization: Bearer <PAT or session JWT>.', {
              extensions: { code: 'UNAUTHENTICATED' },
            });
      setResultAndStopExecution({ errors: [error] });
    },
  };
}

/** graphql-js' hint at the end of a message: ` Did you mean "alerts"?`, ` Did you mean the enum value "INFO"?`. */
const SUGGESTION = /\s*Did you mean [\s\S]*$/;

/** The errors with graphql-js' suggestions cut off. */
export function withoutSuggestions<E extends GraphQLError>(errors: readonly E[]): GraphQLError[] {
  return errors.map((e) =>
    SUGGESTION.test(e.message)
      ? new GraphQLError(e.message.replace(SUGGESTION, ''), {
          nodes: e.nodes,
          source: e.source,
          positions: e.positions,
          path: e.path,
          originalError: e.originalError,
          extensions: e.extensions,
        })
      : e,
  );
}

/**
 * "Did you mean …" hints name fields, arguments, types and enum values of the schema: a caller who may
 * not introspect gets the errors without them, in the answer to an HTTP request (validation errors are
 * cached per document, so they are rewritten on the way out, not at validation) and at execution
 * (variable values; graphql-ws and REST too). `principalOf` names the caller of an HTTP request.
 */
function hideSuggestionsPlugin(
  rt: Runtime,
  principalOf: (request: Request) => Principal | null | undefined,
): Plugin<Ctx> {
  const policy = rt.config.introspection;
  return {
    onExecutionResult({ request, result, setResult }) {
      if (policy === 'public' || introspectionAllowed(policy, principalOf(request))) return;
      if (result && 'errors' in result && result.errors?.length)
        setResult({ ...result, errors: withoutSuggestions(result.errors) });
    },
    onExecute({ args }) {
      if (policy === 'public' || introspectionAllowed(policy, (args.contextValue as Ctx).principal)) return;
      return {
        onExecuteDone({ result, setResult }) {
          if ('errors' in result && result.errors?.length)
            setResult({ ...result, errors: withoutSuggestions(result.errors) });
        },
      };
    },
  };
}

/**
 * Refuses a document over the fragment limits (graphql-expansion.ts) before graphql-js' validation runs:
 * the standard rules and the depth rule walk every expansion of a fragment, so a fragment bomb is
 * answered from the parsed document in a linear walk instead.
 */
function fragmentLimitsPlugin(): Plugin {
  return {
    onValidate({ params, setResult }) {
      const refusal = fragmentExpansionRefusal(params.documentAST);
      if (refusal) setResult([expansionError(refusal)]);
    },
  };
}

function safeLiteralsPlugin(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(safeLiteralsRule);
    },
  };
}

/**
 * Refuses an operation over the node limit before it runs, over HTTP and graphql-ws (REST's own documents are bounded by its contract). It runs
 * at execution rather than validation because a page size may be a variable (`first: $first`).
 */
function queryCostPlugin(): Plugin<Ctx> {
  const refusal = (args: ExecutionArgs) => {
    const refused = queryCostError(
      args.schema,
      args.document,
      args.variableValues as Record<string, unknown> | undefined,
      args.operationName,
    );
    return refused ? { errors: [graphqlErrorFromDomain(refused)] } : undefined;
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const result = refusal(args);
      if (result) setResultAndStopExecution(result);
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const result = refusal(args);
      if (result) setResultAndStopExecution(result);
    },
  };
}

/**
 * Options for graphql-armor's token, depth and alias rules: a refusal names the limit and answers 400, like
 * the fragment limits (armor would otherwise throw its own error, which yoga answers 200 with no limit
 * named). Depth and aliases are reported as validation errors; tokens, counted while parsing, are thrown.
 */
export function armorRefusal(limit: 'MAX_QUERY_TOKENS' | 'MAX_QUERY_DEPTH' | 'MAX_QUERY_ALIASES', max: number) {
  return {
    propagateOnRejection: false,
    onReject: [
      (context: ValidationContext | null, error: GraphQLError) => {
        const refusal = new GraphQLError(`${error.message.replace(/^Syntax Error: /, '')} (${limit})`, {
          extensions: {
            code: context ? 'GRAPHQL_VALIDATION_FAILED' : 'GRAPHQL_PARSE_FAILED',
            limit,
            max,
            http: { status: 400, spec: false },
          },
        });
        if (!context) throw refusal;
        context.reportError(refusal);
      },
    ],
  };
}

/**
 * A limit refusal is a 400 for every client. yoga marks every error thrown while parsing as the spec's own
 * (`http.spec`, overwriting ours), and GraphQL over HTTP lets a parse error reach an `application/json`
 * client as a 200; the token limit is met while parsing, so without this its refusal answered 200. The
 * marks are set back before the answer is built.
 */
function limitRefusalStatusPlugin(): Plugin {
  return {
    onResultProcess({ result }) {
      if (Symbol.asyncIterator in result) return;
      for (const r of Array.isArray(result) ? result : [result])
        for (const e of r.errors ?? []) {
          const ext = e.extensions as { limit?: unknown; http?: { spec?: boolean } } | undefined;
          if (ext?.limit && ext.http) ext.http.spec = false;
        }
    },
  };
}

/** The document and introspection limits, in the order yoga should apply them. */
export function graphqlGuardPlugins(
  rt: Runtime,
  principalOf: (request: Request) => Principal | null | undefined,
): Plugin<Ctx>[] {
  return [
    maxTokensPlugin({ n: MAX_QUERY_TOKENS, ...armorRefusal('MAX_QUERY_TOKENS', MAX_QUERY_TOKENS) }) as Plugin<Ctx>,
    limitRefusalStatusPlugin() as Plugin<Ctx>,
    fragmentLimitsPlugin() as Plugin<Ctx>,
    queryCostPlugin(),
    safeLiteralsPlugin() as Plugin<Ctx>,
    introspectionPolicyPlugin(rt),
    hideSuggestionsPlugin(rt, principalOf),
  ];
}

/**
 * A client's bad argument that a library raised as a plain error, as BAD_USER_INPUT (else undefined):
 * Pothos' argument checks (negative `first`, a malformed cursor) and variable values a scalar refused
 * while coercing (`Int cannot represent non 32-bit signed integer value`) or found missing (`Variable "$id"
 * of required type "ID!" was not provided`); they have no path: nothing ran yet.
 */
export function userInputErrorOf(error: unknown): GraphQLError | undefined {
  const original = error instanceof GraphQLError ? error.originalError : error;
  if (
    error instanceof GraphQLError &&
    !error.path &&
    (original instanceof GraphQLError || (!original && /^Variable "\$/.test(error.message)))
  ) {
    // A variable GraphQL could not coerce names its field (`fields: [{loc: ['input', 'kind'], ...}]`).
    const coercion = variableCoercionExtensions(error.message);
    return new GraphQLError(error.message, {
      nodes: error.nodes,
      extensions: {
        ...(original instanceof GraphQLError ? original.extensions : {}),
        ...coercion,
        code: 'BAD_USER_INPUT',
      },
    });
  }
  if (!(original instanceof PothosValidationError)) return undefined;
  const base = error instanceof GraphQLError ? error : undefined;
  return new GraphQLError(original.message, {
    nodes: base?.nodes,
    path: base?.path,
    extensions: { code: 'BAD_USER_INPUT' },
  });
}
