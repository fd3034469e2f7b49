/**
 * Publish/subscribe over Redis, so a subscriber on one API node sees what another node published.
 * Topics are per tenant: the tenant id is the topic id, taken from the credential.
 */
import { createPubSub } from 'graphql-yoga';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import type { Redis } from 'ioredis';

/** Messages carry the serialized row so SSE and subscriptions need no extra query. */
export type PubSubChannels = {
  eventAdded: [tenantId: string, payload: Record<string, unknown>];
  alertChanged: [tenantId: string, payload: Record<string, unknown>];
  deliveryChanged: [tenantId: string, payload: Record<string, unknown>];
  proposalChanged: [tenantId: string, payload: Record<string, unknown>];
  deviceChanged: [tenantId: string, payload: Record<string, unknown>];
  tokenChanged: [tenantId: string, payload: Record<string, unknown>];
};

export function createRedisPubSub(publishClient: Redis, subscribeClient: Redis) {
  return createPubSub<PubSubChannels>({
    eventTarget: createRedisEventTarget({ publishClient, subscribeClient }),
  });
}

export type PubSub = ReturnType<typeof createRedisPubSub>;
