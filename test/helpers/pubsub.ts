/**
 * Waits for the fact that a subscription is live: its Redis channel has a subscriber
 * (`PUBSUB NUMSUB` on the test Redis), instead of sleeping and hoping the subscribe reached Redis.
 *
 * NUMSUB counts Redis connections, and one server subscribes once per channel however many clients
 * listen. So "≥ 1" proves a new subscription is live only if no other one on the same server and
 * channel was (or still is being torn down): a test that disposes a subscription and then opens
 * another on the same channel waits for `untilUnsubscribed` in between.
 */
import { Redis } from 'ioredis';
import { pubsubChannel, type PubSubChannels } from '../../src/pubsub.js';
import { REDIS_URL } from './env.js';
import { eventually } from './http.js';

type Topic = keyof PubSubChannels;
/** A test server, or anything that names the installation's REDIS_PREFIX. */
export type Installation = { config: { redisPrefix: string } };

async function withRedis<T>(fn: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    return await fn(redis);
  } finally {
    redis.disconnect();
  }
}

async function numsub(redis: Redis, where: Installation, topic: Topic, id: string): Promise<number> {
  const [, n] = (await redis.call('PUBSUB', 'NUMSUB', pubsubChannel(where.config.redisPrefix, topic, id))) as [
    string,
    number,
  ];
  return Number(n);
}

/** How many Redis connections listen on the channel of `topic:id` of this installation. */
export function subscriberCount(where: Installation, topic: Topic, id: string): Promise<number> {
  return withRedis((redis) => numsub(redis, where, topic, id));
}

/** Resolves once at least `count` connections listen on `topic:id` (one per server listening). */
export function untilSubscribed(
  where: Installation,
  topic: Topic,
  id: string,
  count = 1,
  timeoutMs = 15000,
): Promise<void> {
  return withRedis(async (redis) => {
    await eventually(async () => (await numsub(redis, where, topic, id)) >= count, timeoutMs, 20).catch(
      (err: Error) => {
        throw new Error(
          `fewer than ${count} subscribers on ${topic}:${id} (${where.config.redisPrefix}): ${err.message}`,
        );
      },
    );
  });
}

/** Resolves once nothing listens on `topic:id` any more. */
export function untilUnsubscribed(where: Installation, topic: Topic, id: string, timeoutMs = 15000): Promise<void> {
  return withRedis(async (redis) => {
    await eventually(async () => (await numsub(redis, where, topic, id)) === 0, timeoutMs, 20).catch((err: Error) => {
      throw new Error(`${topic}:${id} (${where.config.redisPrefix}) still has subscribers: ${err.message}`);
    });
  });
}
