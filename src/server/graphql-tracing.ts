/**
 * GraphQL operations as spans, for documents sent to /graphql and the ones REST routes run alike:
 * `query ConsoleAlerts` under the request's server span, which also gets the operation's name and type.
 * Variables and results are never recorded.
 */
import { trace, SpanKind } from '@opentelemetry/api';
import { getOperationAST, type ExecutionArgs } from 'graphql';
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
