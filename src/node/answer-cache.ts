import { LRUCache } from 'lru-cache';

// Answers that cannot change (docs/json-rpc.md#answer-cache; which ones: src/node/rpc/cache-policy.ts), kept per
// network, method and params within a memory budget. An evicted answer is simply asked again.

export interface AnswerCache {
  get(key: string): { result: unknown } | undefined;
  set(key: string, result: unknown): void;
}

/** The cache key of a call; params are the validated, normalized ones, so equal calls meet. */
export function answerKey(network: string, method: string, params: readonly unknown[]): string {
  return `${network} ${method} ${JSON.stringify(params)}`;
}

export function createAnswerCache(options: { maxBytes?: number } = {}): AnswerCache {
  const cache = new LRUCache<string, { result: unknown }>({
    maxSize: options.maxBytes ?? 64 * 1024 * 1024,
    // Sized by the key and the answer as JSON, roughly what they occupy.
    sizeCalculation: (value, key) => key.length + (JSON.stringify(value.result)?.length ?? 4) + 64,
  });
  return {
    get: (key) => cache.get(key),
    set: (key, result) => void cache.set(key, { result }),
  };
}
