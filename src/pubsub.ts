/**
 * Publish/subscribe over Redis, so a subscriber on one API node sees what another node published.
 * Topics are per tenant: the tenant id is the topic id, taken from the credential. Redis channels carry
 * the installation's REDIS_PREFIX (`<prefix>:pubsub:<topic>`), so installations sharing one Redis do not
 * hear each other.
 *
 * On one Redis: classic SUBSCRIBE/PUBLISH (`@graphql-yoga/redis-event-target`). On a Redis Cluster,
 * where a classic PUBLISH is broadcast to every node of the cluster: sharded pub/sub (SSUBSCRIBE/
 * SPUBLISH), each tenant's channels hash-tagged by tenant id (`<prefix>:pubsub:eventAdded:{<tenant>}`),
 * so a message travels only within the shard that owns that tenant's slot.
 */
import { createPubSub } from 'graphql-yoga';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import type { Cluster, Redis } from 'ioredis';
import type { RedisClient } from './redis-connection.js';

/** Messages carry the serialized row so SSE and subscriptions need no extra query. */
export type PubSubChannels = {
  eventAdded: [tenantId: string, payload: Record<string, unknown>];
  alertChanged: [tenantId: string, payload: Record<string, unknown>];
  alertGroupChanged: [tenantId: string, payload: Record<string, unknown>];
  deliveryChanged: [tenantId: string, payload: Record<string, unknown>];
  proposalChanged: [tenantId: string, payload: Record<string, unknown>];
  deviceChanged: [tenantId: string, payload: Record<string, unknown>];
  tokenChanged: [tenantId: string, payload: Record<string, unknown>];
  integrationHealthChanged: [tenantId: string, payload: Record<string, unknown>];
  gpuHealthChanged: [tenantId: string, payload: Record<string, unknown>];
  /** A paging notification was planned, sent, skipped or failed, or an inbox item was read. */
  notificationChanged: [tenantId: string, payload: Record<string, unknown>];
};

/** The Redis channel of one topic (`routingKey:id`, as graphql-yoga names it) for an installation. */
export function pubsubChannel(
  redisPrefix: string,
  routingKey: keyof PubSubChannels,
  id: string,
  sharded = false,
): string {
  return sharded ? `${redisPrefix}:pubsub:${routingKey}:{${id}}` : `${redisPrefix}:pubsub:${routingKey}:${id}`;
}

type EventTarget = ReturnType<typeof createRedisEventTarget>;

/**
 * Publishes Redis has not answered yet. graphql-yoga's `publish` does not wait for Redis; `settled()` does,
 * so a closing runtime (a short-lived CLI process above all) sends what it announced before it quits.
 */
function publishTracker() {
  const pending = new Set<Promise<unknown>>();
  return {
    track(p: Promise<unknown>): void {
      const settled = p.catch(() => undefined).finally(() => pending.delete(settled));
      pending.add(settled);
    },
    settled: async (): Promise<void> => {
      await Promise.all([...pending]);
    },
  };
}
type Tracker = ReturnType<typeof publishTracker>;

/** Sharded pub/sub on a Cluster: one SSUBSCRIBE per channel with listeners on this node, SPUBLISH to publish. */
function shardedEventTarget(
  publishClient: Cluster,
  subscribeClient: Cluster,
  channelOf: (topic: string) => string,
  tracker: Tracker,
): EventTarget {
  type Listener = ((event: CustomEvent) => void) | { handleEvent(event: CustomEvent): void };
  const listeners = new Map<string, Set<Listener>>();
  subscribeClient.on('smessage', (channel: string, message: string) => {
    const callbacks = listeners.get(channel);
    if (!callbacks) return;
    // One event for every listener of the channel: subscriptions of one tenant share the parsed payload.
    const event = new CustomEvent(channel, { detail: message === '' ? null : JSON.parse(message) });
    for (const l of callbacks) typeof l === 'function' ? l(event) : l.handleEvent(event);
  });
  return {
    addEventListener(topic, listener) {
      if (!listener) return;
      const channel = channelOf(topic);
      let callbacks = listeners.get(channel);
      if (!callbacks) {
        listeners.set(channel, (callbacks = new Set()));
        void subscribeClient.ssubscribe(channel).catch(() => undefined); // re-subscribed by ioredis on reconnect
      }
      callbacks.add(listener as Listener);
    },
    removeEventListener(topic, listener) {
      if (!listener) return;
      const channel = channelOf(topic);
      const callbacks = listeners.get(channel);
      if (!callbacks) return;
      callbacks.delete(listener as Listener);
      if (callbacks.size) return;
      listeners.delete(channel);
      void subscribeClient.sunsubscribe(channel).catch(() => undefined);
    },
    dispatchEvent(event) {
      const detail = (event as CustomEvent).detail;
      tracker.track(publishClient.spublish(channelOf(event.type), detail === undefined ? '' : JSON.stringify(detail)));
      return true;
    },
  } as EventTarget;
}

/** graphql-yoga's topic `routingKey:tenantId` → the Redis channel. */
function channelNamer(redisPrefix: string, sharded: boolean): (topic: string) => string {
  return (topic) => {
    const at = topic.indexOf(':');
    if (at < 0) return `${redisPrefix}:pubsub:${topic}`;
    return pubsubChannel(redisPrefix, topic.slice(0, at) as keyof PubSubChannels, topic.slice(at + 1), sharded);
  };
}

/** The pubsub of this installation; `sharded` (a Redis Cluster) uses SSUBSCRIBE/SPUBLISH. */
export function createRedisPubSub(
  publishClient: RedisClient,
  subscribeClient: RedisClient,
  redisPrefix: string,
  sharded = false,
) {
  const channel = channelNamer(redisPrefix, sharded);
  const tracker = publishTracker();
  const withSettled = (eventTarget: EventTarget) =>
    Object.assign(createPubSub<PubSubChannels>({ eventTarget }), { settled: tracker.settled });
  if (sharded)
    return withSettled(shardedEventTarget(publishClient as Cluster, subscribeClient as Cluster, channel, tracker));
  const redis = createRedisEventTarget({
    publishClient: publishClient as Redis,
    subscribeClient: subscribeClient as Redis,
  });
  // graphql-yoga's pubsub reads only `detail` from the events it receives, so renaming the topic on
  // the way to Redis and listening under the renamed topic is all the prefix needs.
  const eventTarget: typeof redis = {
    addEventListener: (topic, listener, options) => redis.addEventListener(channel(topic), listener, options),
    removeEventListener: (topic, listener, options) => redis.removeEventListener(channel(topic), listener, options),
    // What redis.dispatchEvent sends (JSON, '' for no detail), tracked until Redis answers.
    dispatchEvent: (event) => {
      const detail = (event as CustomEvent).detail;
      tracker.track(
        (publishClient as Redis).publish(channel(event.type), detail === undefined ? '' : JSON.stringify(detail)),
      );
      return true;
    },
  };
  return withSettled(eventTarget);
}

export type PubSub = ReturnType<typeof createRedisPubSub>;
