import { z } from 'zod';
import { defineRpcMethod } from '../method.ts';
import { BlockParam, HexQuantity } from '../schemas/primitives.ts';
import { Block, Receipt } from '../schemas/results.ts';
import { blockHashParam, blockNumberParam, fullTransactionsParam } from './params.ts';

// Blocks and what they count. Lookups by hash never change once found; lookups by number are
// cached once the block is final.

const countResult = (what: string) => ({
  name: 'count',
  description: `The number of ${what} as a hex quantity, or null for an unknown block.`,
  schema: HexQuantity.nullable(),
});

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
];
