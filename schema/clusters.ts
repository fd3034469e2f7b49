/**
 * GraphQL of federation (hub side): the member clusters with their status, single-use invites, revoke.
 * The join exchange, heartbeats and forwarded alerts are calls between installations with their own
 * credentials (REST: POST /clusters/join, /clusters/heartbeat, /clusters/events).
 */
import { builder, requestOrigin, NodeRef } from './builder.js';
import {
  clusterStatus,
  createClusterInvite,
  getCluster,
  listClusters,
  revokeCluster,
  type MintedInvite,
} from '../src/clusters/hub.js';

const ClusterStatusEnum = builder.enumType('ClusterStatus', {
  description:
    'CONNECTED: heartbeats arrive; STALE: none within CLUSTER_STALE_AFTER_MS; REVOKED: its credential no longer works.',
  values: { CONNECTED: { value: 'connected' }, STALE: { value: 'stale' }, REVOKED: { value: 'revoked' } } as const,
});

const ClusterRef = builder.prismaObject('Cluster', {
  interfaces: [NodeRef],
  description: 'Another installation of the service that joined this one (the hub) with an invite.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    url: t.exposeString('url', { nullable: true, description: "The member's public base URL, when it has one." }),
    status: t.field({ type: ClusterStatusEnum, resolve: (c, _a, ctx) => clusterStatus(ctx.rt, c) }),
    version: t.exposeString('version', { nullable: true }),
    lastSeenAt: t.expose('lastSeenAt', { type: 'DateTime', nullable: true }),
    summary: t.expose('summary', {
      type: 'JSON',
      description: 'The latest heartbeat: {open_alerts: {info, warning, critical}, device_count}.',
    }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const InviteRef = builder.objectRef<MintedInvite>('ClusterInvite').implement({
  description: 'A single-use invite; the token is shown this once.',
  fields: (t) => ({
    id: t.exposeID('id'),
    token: t.exposeString('token'),
    expiresAt: t.field({ type: 'DateTime', resolve: (i) => i.expiresAt }),
    command: t.exposeString('command', { description: 'What the member installation runs to join.' }),
  }),
});

builder.queryFields((t) => ({
  clusters: t.field({
    type: [ClusterRef],
    authScopes: { user: true },
    description: 'Member clusters, oldest first.',
    resolve: (_r, _a, ctx) => listClusters(ctx),
  }),
  cluster: t.field({
    type: ClusterRef,
    authScopes: { user: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => getCluster(ctx, String(a.id)),
  }),
}));

builder.mutationFields((t) => ({
  createClusterInvite: t.field({
    type: InviteRef,
    authScopes: { admin: true },
    description: 'Mints a single-use invite (hashed at rest) that expires after expiresInHours (default 24).',
    args: {
      expiresInHours: t.arg.int(),
      hubUrl: t.arg.string({
        description:
          "The URL members reach this hub at, shown in the command (default PUBLIC_BASE_URL, else the request's origin).",
      }),
    },
    resolve: (_r, a, ctx) =>
      createClusterInvite(ctx, { expiresInHours: a.expiresInHours, hubUrl: a.hubUrl }, requestOrigin(ctx)),
  }),
  revokeCluster: t.field({
    type: ClusterRef,
    authScopes: { admin: true },
    description: 'Revokes a cluster: its next call gets 401. Idempotent.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => revokeCluster(ctx, String(a.id)),
  }),
}));
