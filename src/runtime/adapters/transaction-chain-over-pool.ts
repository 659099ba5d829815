import { NoHealthyUpstreamError, type UpstreamPool } from '../../node/upstreams/upstream-pool.ts';
import type { TransactionChain } from '../../webhooks/transactions/watcher.ts';

// The transaction watcher's chain (src/webhooks/transactions/watcher.ts) over the gateway's
// upstream pools: its reads go out as one JSON-RPC batch per ask, retried on another upstream as
// any idempotent read is; a call the node refuses answers null.

export function transactionChainOverPools(pools: ReadonlyMap<string, UpstreamPool>): TransactionChain {
  return {
    async call(network, calls) {
      const pool = pools.get(network);
      if (!pool) throw new Error(`no upstream pool for ${network}`);
      if (calls.length === 0) return [];
      const body = JSON.stringify(calls.map((call, id) => ({ jsonrpc: '2.0', id, method: call.method, params: call.params })));
      let answer: unknown;
      try {
        answer = JSON.parse(await pool.send(body, { kind: 'idempotent' }));
      } catch (error) {
        if (error instanceof SyntaxError) throw new NoHealthyUpstreamError(error);
        throw error;
      }
      if (!Array.isArray(answer)) throw new Error(`the node refused the batch: ${JSON.stringify(answer).slice(0, 200)}`);
      const byId = new Map<unknown, { result?: unknown; error?: unknown }>();
      for (const item of answer) if (item && typeof item === 'object') byId.set((item as { id: unknown }).id, item);
      return calls.map((_, id) => {
        const item = byId.get(id);
        return item && item.error === undefined ? (item.result ?? null) : null;
      });
    },
  };
}
