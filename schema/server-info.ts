/**
 * `serverInfo`: the release an integrator is talking to (docs/api-evolution.md): package.json's semantic
 * version, a hash of the GraphQL schema it serves (equal for equal schemas, whatever the release) and
 * the optional features this deployment has turned on. `GET /api/v1/version` answers the same.
 */
import { createHash } from 'node:crypto';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { builder } from './builder.js';
import { serviceVersion } from '../src/version.js';
import { listProviders } from '../src/integrations/registry.js';
import type { Runtime } from '../src/runtime.js';

interface ServerInfo {
  version: string;
  schemaHash: string;
  features: string[];
}

const hashes = new WeakMap<GraphQLSchema, string>();

/** `sha256:<hex>` of the sorted printed schema (schema.graphql without its header comment). */
export function schemaHash(schema: GraphQLSchema): string {
  let h = hashes.get(schema);
  if (!h) {
    h = `sha256:${createHash('sha256')
      .update(printSchema(lexicographicSortSchema(schema)))
      .digest('hex')}`;
    hashes.set(schema, h);
  }
  return h;
}

/**
 * The deployment's features, sorted: `assistant:<builtin|openai>`, `integration:<provider>` per
 * registered provider, `pagerduty-events-v2` (the `/v2/enqueue` path), and when configured
 * `redis-cluster`, `reports-replica`, `public-base-url`.
 */
export function enabledFeatures(rt: Runtime): string[] {
  const c = rt.config;
  const features = [
    `assistant:${c.assistant.provider}`,
    'pagerduty-events-v2',
    ...listProviders().map((p) => `integration:${p.id}`),
    ...(c.redisCluster ? ['redis-cluster'] : []),
    ...(c.reportsDatabaseUrl ? ['reports-replica'] : []),
    ...(c.publicBaseUrl ? ['public-base-url'] : []),
  ];
  return features.sort();
}

const ServerInfoRef = builder.objectRef<ServerInfo>('ServerInfo').implement({
  description: 'The release this server runs.',
  fields: (t) => ({
    version: t.exposeString('version', { description: 'Semantic version (CHANGELOG.md has its section).' }),
    schemaHash: t.exposeString('schemaHash', {
      description: '`sha256:<hex>` of the printed, sorted GraphQL schema this server serves.',
    }),
    features: t.exposeStringList('features', { description: 'Optional features turned on, sorted.' }),
  }),
});

builder.queryFields((t) => ({
  serverInfo: t.field({
    type: ServerInfoRef,
    authScopes: { user: true },
    description: 'The release this server runs: version, schema hash and enabled features.',
    resolve: (_root, _args, ctx, info) => ({
      version: serviceVersion(),
      schemaHash: schemaHash(info.schema),
      features: enabledFeatures(ctx.rt),
    }),
  }),
}));
