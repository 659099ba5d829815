import { createHash } from 'node:crypto';
import { ErrorReply } from 'redis';
import type { RedisClient } from '../store/redis.ts';

/**
 * A Lua script run by its SHA1 (EVALSHA), so each call sends the hash rather than the source.
 * A server that does not hold it (first use, a restart, SCRIPT FLUSH) answers NOSCRIPT, and the
 * source is sent once with EVAL, which also caches it for the next call.
 */
export function redisScript(client: RedisClient, source: string): (keys: string[], args: string[]) => Promise<unknown> {
  const sha = createHash('sha1').update(source).digest('hex');
  return async (keys, args) => {
    try {
      return await client.evalSha(sha, { keys, arguments: args });
    } catch (error) {
      if (error instanceof ErrorReply && error.message.startsWith('NOSCRIPT')) return client.eval(source, { keys, arguments: args });
      throw error;
    }
  };
}
