/**
 * REST routes of federation. Hub side for users: list, invite (admin), revoke (admin). Calls between
 * installations: POST /clusters/join (the invite is the credential), POST /clusters/heartbeat and
 * POST /clusters/events (the cluster credential), handlers because their credential is not a user's.
 */
import type { RouteEntry } from '../route-types.js';
import {
  clusterCredentialAuth,
  clusterStatus,
  joinWithInvite,
  recordForwardedAlerts,
  recordHeartbeat,
} from '../../src/clusters/hub.js';
import { consumeInboundRate } from '../../src/events/rate-limit.js';
import { CLUSTER_FIELDS, presentCluster, presentInvite } from '../presenters/clusters.js';

export const clustersRoutes: RouteEntry[] = [
  {
    method: 'get',
    path: '/clusters',
    operation: `query Clusters { clusters { ${CLUSTER_FIELDS} } }`,
    respond: (data) => ({ items: data.clusters.map(presentCluster) }),
  },
  {
    method: 'post',
    path: '/clusters/invite',
    operation:
      'mutation CreateClusterInvite($hours: Int, $hubUrl: String) { createClusterInvite(expiresInHours: $hours, hubUrl: $hubUrl) { id token expiresAt command } }',
    variables: (req) => ({ hours: req.body?.expires_in_hours ?? null, hubUrl: req.body?.hub_url ?? null }),
    status: 201,
    respond: (data) => presentInvite(data.createClusterInvite),
  },
  {
    method: 'post',
    path: '/clusters/join',
    auth: 'public',
    handler: async (req, res) => {
      // Join attempts are counted per client address, like other unauthenticated posts.
      await consumeInboundRate(req.ctx.rt, `cluster-join:${req.ip ?? 'unknown'}`);
      const { cluster, credential } = await joinWithInvite(req.ctx.rt, req.body ?? {});
      res.status(201).json({
        cluster_id: cluster.id,
        name: cluster.name,
        credential,
        heartbeat_interval_seconds: Math.max(1, Math.round(req.ctx.rt.config.integrations.clusterHeartbeatMs / 1000)),
      });
    },
  },
  {
    method: 'post',
    path: '/clusters/heartbeat',
    auth: clusterCredentialAuth,
    handler: async (req, res) => {
      const c = await recordHeartbeat(req.ctx, req.body ?? {});
      res.status(200).json({ cluster_id: c.id, status: clusterStatus(req.ctx.rt, c) });
    },
  },
  {
    method: 'post',
    path: '/clusters/events',
    auth: clusterCredentialAuth,
    handler: async (req, res) => {
      const r = await recordForwardedAlerts(req.ctx, req.body ?? {});
      res.status(202).json({ events: r.events });
    },
  },
  {
    method: 'get',
    path: '/clusters/:clusterId',
    operation: `query Cluster($id: ID!) { cluster(id: $id) { ${CLUSTER_FIELDS} } }`,
    variables: (req) => ({ id: req.params.clusterId }),
    respond: (data) => presentCluster(data.cluster),
  },
  {
    method: 'post',
    path: '/clusters/:clusterId/revoke',
    operation: `mutation RevokeCluster($id: ID!) { revokeCluster(id: $id) { ${CLUSTER_FIELDS} } }`,
    variables: (req) => ({ id: req.params.clusterId }),
    respond: (data) => presentCluster(data.revokeCluster),
  },
];
