import { z } from 'zod';
import { INDEX_STATES, type NetworkIndexStatus } from '../transfers/queries.ts';
import { defineOperation } from '../api/operation.ts';
import { errorResponseSpec, jsonResponse } from '../api/responses.ts';

// GET /api/indexer/status: how far the transfer index reaches on each network (docs/website.md#indexer-status), read
// from the database, so any server process answers for the indexer processes.

/** Each indexed network's progress (src/transfers/queries.ts indexerStatus). */
export type IndexerStatusSource = () => Promise<NetworkIndexStatus[]>;

const block = z.int().min(0);

const IndexerStatus = z.object({
  networks: z.array(
    z.object({
      network: z.string().describe('Network id, as in content/networks/.'),
      state: z
        .enum(INDEX_STATES)
        .describe(
          'waiting: never indexed yet; backfilling: reading past blocks in ranges; following: level with the confirmed head; failing: the last step failed (see lastError) and is being retried; stopped: no indexer process leads this network.',
        ),
      headBlock: block.nullable().describe('The chain head the indexer last saw; null before it first looked.'),
      indexedBlock: block.nullable().describe('The last block in the index; null when none is yet.'),
      lag: block.nullable().describe('headBlock minus indexedBlock; includes the configured confirmation depth.'),
      updatedAt: z.iso.datetime().nullable().describe('When the indexer last moved the index or saw the head.'),
      lastError: z.string().nullable().describe('Why the last step failed, while the state is failing; otherwise null.'),
    }),
  ),
});
type IndexerStatus = z.infer<typeof IndexerStatus>;

export function indexerStatusOperation(status: IndexerStatusSource) {
  return defineOperation({
    operationId: 'getIndexerStatus',
    method: 'GET',
    path: '/api/indexer/status',
    summary: 'Transfer indexer progress per network',
    description:
      'Each indexed network with its chain head, the last block in the transfer index, the lag between them and the indexer’s state. The token balances, NFT and webhook data reflect the indexed block. Never cached (`Cache-Control: no-store`).',
    tags: ['Indexer'],
    responses: {
      200: { description: 'Every indexed network, by id.', content: { 'application/json': IndexerStatus } },
      500: errorResponseSpec('internal_error', 'the database could not be read.'),
    },
    handler: async () => {
      const networks = await status();
      const body: IndexerStatus = {
        networks: networks.map((network) => ({ ...network, updatedAt: network.updatedAt === null ? null : new Date(network.updatedAt).toISOString() })),
      };
      return jsonResponse(body, { headers: { 'cache-control': 'no-store' } });
    },
  });
}
