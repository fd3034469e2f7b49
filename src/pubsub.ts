/**
 * Publish/subscribe over Redis, so a subscriber on one API node sees what another node published.
 * Topics are per tenant: the tenant id is the topic id, taken from the credential. Redis channels carry
 * the installation's REDIS_PREFIX (`<prefix>:pubsub:<topic>`), so installations sharing one Redis do not
 * hear each other.
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
  integrationHealthChanged: [tenantId: string, payload: Record<string, unknown>];
  gpuHealthChanged: [tenantId: string, payload: Record<string, unknown>];
};

/** The Redis channel of one topic (`routingKey:id`, as graphql-yoga names it) for an installation. */
export function pubsubChannel(redisPrefix: string, routingKey: keyof PubSubChannels, id: string): string {
  return `${redisPrefix}:pubsub:${routingKey}:${id}`;
}

export function createRedisPubSub(publishClient: Redis, subscribeClient: Redis, redisPrefix: string) {
  const redis = createRedisEventTarget({ publishClient, subscribeClient });
  const channel = (topic: string) => `${redisPrefix}:pubsub:${topic}`;
  // graphql-yoga's pubsub reads only `detail` from the events it receives, so renaming the topic on
  // the way to Redis and listening under the renamed topic is all the prefix needs.
  const eventTarget: typeof redis = {
    addEventListener: (topic, listener, options) => redis.addEventListener(channel(topic), listener, options),
    removeEventListener: (topic, listener, options) => redis.removeEventListener(channel(topic), listener, options),
    dispatchEvent: (event) => redis.dispatchEvent(new CustomEvent(channel(event.type), { detail: (event as CustomEvent).detail })),
  };
  return createPubSub<PubSubChannels>({ eventTarget });
}

export type PubSub = ReturnType<typeof createRedisPubSub>;
