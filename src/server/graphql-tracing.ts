/**
 * GraphQL operations as spans, for documents sent to /graphql and the ones REST routes run alike:
 * `query ConsoleAlerts` under the request's server span, which also gets the operation's name and type.
 * Variables and results are never recorded.
 */
import { context, trace, SpanKind } from '@opentelemetry/api';
import {
  getOperationAST,
  isObjectType,
  type ExecutionArgs,
  type GraphQLResolveInfo,
  type GraphQLSchema,
} from 'graphql';
import type { Ctx } from '../context.js';
import type { Plugin } from 'graphql-yoga';
import type { Runtime } from '../runtime.js';
import { inSpan } from '../tracing.js';

export function useOperationSpans(rt: Runtime): Plugin {
  const { telemetry } = rt;
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      if (!telemetry.enabled) return;
      const op = getOperationAST(args.document, args.operationName);
      const type = op?.operation ?? 'query';
      const name = op?.name?.value ?? 'anonymous';
      const attributes = { 'graphql.operation.name': name, 'graphql.operation.type': type };
      const server = trace.getActiveSpan();
      server?.setAttributes(attributes);
      setExecuteFn((a: ExecutionArgs) =>
        inSpan(telemetry.tracer, `${type} ${name}`, { kind: SpanKind.INTERNAL, attributes }, async () => executeFn(a)),
      );
    },
  };
}

const wrapped = new WeakSet<GraphQLSchema>();

/** `alerts.edges.3.node.device`: where a field sits in the result (names and list positions only). */
function pathOf(path: GraphQLResolveInfo['path']): string {
  const parts: Array<string | number> = [];
  for (let p: GraphQLResolveInfo['path'] | undefined = path; p; p = p.prev) parts.push(p.key);
  return parts.reverse().join('.');
}

/**
 * Resolver spans: a field whose resolver took at least `config.otel.resolverSpanMinMs`
 * (TRACING_RESOLVER_MIN_MS, default 10) gets a span `resolve <Type>.<field>` under the operation's span,
 * with its start and end times, its path and type; never its arguments or its value. The span is made
 * once the resolver has settled (only slow ones cost a span), so queries the resolver ran are its
 * siblings rather than its children. Wraps the schema's resolvers once; each call checks its own
 * runtime's telemetry (through the context), so a runtime without export pays one property read.
 */
export function traceSlowResolvers(schema: GraphQLSchema): void {
  if (wrapped.has(schema)) return;
  wrapped.add(schema);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const resolve = field.resolve;
      if (!resolve) continue;
      const name = `resolve ${type.name}.${field.name}`;
      field.resolve = (source, args, ctx: Ctx | undefined, info) => {
        const telemetry = ctx?.rt?.telemetry;
        if (!telemetry?.enabled) return resolve(source, args, ctx, info);
        const parent = context.active();
        const startedAt = Date.now();
        const t0 = performance.now();
        const settle = () => {
          const ms = performance.now() - t0;
          if (ms < ctx!.rt.config.otel.resolverSpanMinMs) return;
          const span = telemetry.tracer.startSpan(
            name,
            {
              kind: SpanKind.INTERNAL,
              startTime: startedAt,
              attributes: {
                'graphql.field.name': field.name,
                'graphql.field.path': pathOf(info.path),
                'graphql.field.type': String(field.type),
                'graphql.parent_type': type.name,
              },
            },
            parent,
          );
          span.end(startedAt + ms);
        };
        const result = resolve(source, args, ctx, info) as unknown;
        if (result instanceof Promise) return result.finally(settle);
        settle();
        return result;
      };
    }
  }
}
