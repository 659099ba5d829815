import { z } from 'zod';
import { defineRpcMethod, type JsonValue } from '../method.ts';
import { BlockParam, BlockTagOrNumber, Hash32, HexQuantity, titled } from '../schemas/primitives.ts';
import { Block, Receipt } from '../schemas/results.ts';
import { blockHashParam, blockNumberParam, fullTransactionsParam } from './params.ts';

// Blocks and what they count. Lookups by hash never change once found; lookups by number are
// cached once the block is final.

const countResult = (what: string) => ({
  name: 'count',
  description: `The number of ${what} as a hex quantity, or null for an unknown block.`,
  schema: HexQuantity.nullable(),
});

const receiptsBlockPhrase = 'must be {"blockNumber": "0x…" or a tag} or {"blockHash": "0x…"}';

/** crucible_getTransactionReceipts' one param: the block, by number (or tag) or by hash. */
const ReceiptsBlock = titled(
  z
    .strictObject(
      { blockNumber: BlockTagOrNumber.optional(), blockHash: Hash32.optional() },
      { error: (issue) => (issue.code === 'unrecognized_keys' ? `has no field ${issue.keys.join(', ')}: only blockNumber or blockHash` : receiptsBlockPhrase) },
    )
    .refine((block) => (block.blockNumber === undefined) !== (block.blockHash === undefined), { error: 'must name exactly one of blockNumber and blockHash' })
    .describe('{"blockNumber"}: a hex block number or a tag; or {"blockHash"}: a 32-byte block hash.'),
  'block by number or hash',
);

export const blockMethods = [
  defineRpcMethod({
    name: 'eth_getBlockByNumber',
    summary: 'Returns a block by number or tag.',
    description:
      'The header fields of the block and its transactions, as hashes or, with fullTransactions true, as full objects. null when the block does not exist yet.',
    category: 'Blocks',
    params: [blockNumberParam, fullTransactionsParam],
    result: { name: 'block', description: 'The block, or null.', schema: Block.nullable() },
    computeUnits: 16,
    cache: { kind: 'when-final', blockParam: 0 },
  }),
  defineRpcMethod({
    name: 'eth_getBlockByHash',
    summary: 'Returns a block by hash.',
    description: 'The block with the given hash, with transaction hashes or full transactions. null when the node does not know the hash.',
    category: 'Blocks',
    params: [blockHashParam, fullTransactionsParam],
    result: { name: 'block', description: 'The block, or null.', schema: Block.nullable() },
    computeUnits: 21,
    cache: { kind: 'when-found' },
  }),
  defineRpcMethod({
    name: 'eth_getBlockTransactionCountByNumber',
    summary: 'Returns the number of transactions in a block, by number or tag.',
    description: 'How many transactions the block holds.',
    category: 'Blocks',
    params: [blockNumberParam],
    result: countResult('transactions'),
    computeUnits: 20,
    cache: { kind: 'when-final', blockParam: 0 },
  }),
  defineRpcMethod({
    name: 'eth_getBlockTransactionCountByHash',
    summary: 'Returns the number of transactions in a block, by hash.',
    description: 'How many transactions the block with the given hash holds.',
    category: 'Blocks',
    params: [blockHashParam],
    result: countResult('transactions'),
    computeUnits: 20,
    cache: { kind: 'when-found' },
  }),
  defineRpcMethod({
    name: 'eth_getUncleCountByBlockNumber',
    summary: 'Returns the number of uncles (ommers) of a block, by number or tag.',
    description: 'How many uncle headers the block includes. Always 0 since the merge and on networks without proof of work.',
    category: 'Blocks',
    params: [blockNumberParam],
    result: countResult('uncles'),
    computeUnits: 15,
    cache: { kind: 'when-final', blockParam: 0 },
  }),
  defineRpcMethod({
    name: 'eth_getUncleCountByBlockHash',
    summary: 'Returns the number of uncles (ommers) of a block, by hash.',
    description: 'How many uncle headers the block with the given hash includes. Always 0 since the merge.',
    category: 'Blocks',
    params: [blockHashParam],
    result: countResult('uncles'),
    computeUnits: 15,
    cache: { kind: 'when-found' },
  }),
  defineRpcMethod({
    name: 'eth_getBlockReceipts',
    summary: 'Returns the receipts of every transaction in a block.',
    description: 'All receipts of the block in one call, in transaction order: cheaper than asking for each receipt. null when the block is unknown.',
    category: 'Blocks',
    params: [{ name: 'block', required: true, schema: BlockParam, description: 'The block: a tag, a hex number, a block hash, or an EIP-1898 object.' }],
    result: { name: 'receipts', description: 'The receipts, or null.', schema: z.array(Receipt).nullable() },
    computeUnits: 500,
    cache: { kind: 'when-final', blockParam: 0 },
  }),
  defineRpcMethod({
    name: 'crucible_getTransactionReceipts',
    summary: 'Returns the receipts of every transaction in a block, as { receipts }.',
    description:
      "The incumbent's form of eth_getBlockReceipts, which answers it: every receipt of the block in transaction order, as the node gives them (hex quantities, lowercase contractAddress), or receipts null when the block is unknown. alchemy-sdk's core.getTransactionReceipts and core.findContractDeployer call it. Also callable as alchemy_getTransactionReceipts.",
    category: 'Blocks',
    params: [{ name: 'block', required: true, schema: ReceiptsBlock, description: 'The block: {"blockNumber": "0x…"} (a tag too) or {"blockHash": "0x…"}.' }],
    result: {
      name: 'receipts',
      description: '{ receipts: [...] }, receipts null for an unknown block.',
      schema: z.object({ receipts: z.array(Receipt).nullable() }),
    },
    computeUnits: 250,
    cache: { kind: 'when-final', blockParam: 0 },
    upstreamAs: {
      method: 'eth_getBlockReceipts',
      params: ([block]) => {
        const { blockNumber, blockHash } = block as { blockNumber?: string; blockHash?: string };
        return [blockNumber ?? blockHash];
      },
      answer: (receipts) => ({ receipts: (receipts ?? null) as JsonValue }),
    },
  }),
];
