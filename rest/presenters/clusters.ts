/**
 * REST shapes of federated clusters and invites.
 */
type Node = Record<string, any>;

export const CLUSTER_FIELDS = 'id name url status version lastSeenAt summary revokedAt createdAt';

export function presentCluster(c: Node): Record<string, unknown> {
  return {
    id: c.id,
    name: c.name,
    url: c.url,
    status: c.status,
    last_seen_at: c.lastSeenAt,
    version: c.version,
    summary: c.summary,
    revoked_at: c.revokedAt,
    created_at: c.createdAt,
  };
}

export function presentInvite(i: Node): Record<string, unknown> {
  return { id: i.id, token: i.token, expires_at: i.expiresAt, command: i.command };
}
