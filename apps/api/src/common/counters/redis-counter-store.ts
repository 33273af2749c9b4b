import { type Redis } from 'ioredis';
import { type CounterStore, type WindowCount } from './counter-store';

// One round trip, atomic: every instance sees the same count. A key without expiry (which
// only an operator could leave) gets one, so that a counter can never stay forever.
const INCREMENT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

const PEEK = `
local count = redis.call('GET', KEYS[1])
if not count then return false end
return {tonumber(count), redis.call('PTTL', KEYS[1])}
`;

/**
 * Counters in Redis, shared by every instance of the service. Operations reject when Redis is
 * unreachable or slow: callers decide how to go on (see FallbackCounterStore).
 */
export class RedisCounterStore implements CounterStore {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {}

  async increment(key: string, windowMs: number): Promise<WindowCount> {
    const reply = await this.redis.eval(INCREMENT, 1, this.keyPrefix + key, windowMs);
    return toWindowCount(reply);
  }

  async peek(key: string): Promise<WindowCount | undefined> {
    const reply = await this.redis.eval(PEEK, 1, this.keyPrefix + key);
    return reply === null ? undefined : toWindowCount(reply);
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.keyPrefix + key);
  }
}

function toWindowCount(reply: unknown): WindowCount {
  if (!Array.isArray(reply) || typeof reply[0] !== 'number' || typeof reply[1] !== 'number') {
    throw new Error(`Unexpected reply from the counter script: ${JSON.stringify(reply)}`);
  }
  return { count: reply[0], resetInMs: Math.max(0, reply[1]) };
}
