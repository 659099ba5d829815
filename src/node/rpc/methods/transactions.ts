import { defineRpcMethod } from '../method.ts';
import { Hash32, NonEmptyHexData } from '../schemas/primitives.ts';
import { Receipt, Transaction } from '../schemas/results.ts';
import { blockHashParam, blockNumberParam, indexParam, transactionHashParam } from './params.ts';

// Transactions: lookups and the one broadcast. eth_sendRawTransaction is never retried on another
// upstream blindly (docs/json-rpc.md#retries): the gateway first asks whether the hash is known.

export const transactionMethods = [
  defineRpcMethod({
    name: 'eth_getTransactionByHash',
    summary: 'Returns a transaction by hash.',
    description: 'The transaction with the given hash, mined or pending (blockHash null while pending), or null when the node does not know it.',
    category: 'Transactions',
    params: [transactionHashParam],
    result: { name: 'transaction', description: 'The transaction, or null.', schema: Transaction.nullable() },
    computeUnits: 17,
    cache: { kind: 'when-found' },
  }),
  defineRpcMethod({
    name: 'eth_getTransactionByBlockNumberAndIndex',
    summary: 'Returns a transaction by block number (or tag) and position.',
    description: 'The transaction at the given index of the block, or null when there is none.',
    category: 'Transactions',
    params: [blockNumberParam, indexParam],
    result: { name: 'transaction', description: 'The transaction, or null.', schema: Transaction.nullable() },
    computeUnits: 15,
    cache: { kind: 'when-final', blockParam: 0 },
  }),
  defineRpcMethod({
    name: 'eth_getTransactionByBlockHashAndIndex',
    summary: 'Returns a transaction by block hash and position.',
    description: 'The transaction at the given index of the block with the given hash, or null when there is none.',
    category: 'Transactions',
    params: [blockHashParam, indexParam],
    result: { name: 'transaction', description: 'The transaction, or null.', schema: Transaction.nullable() },
    computeUnits: 15,
    cache: { kind: 'when-found' },
  }),
  defineRpcMethod({
    name: 'eth_getTransactionReceipt',
    summary: 'Returns the receipt of a mined transaction.',
    description: 'Status, gas used, logs and the created contract of the transaction, once it is in a block; null while it is pending or unknown.',
    category: 'Transactions',
    params: [transactionHashParam],
    result: { name: 'receipt', description: 'The receipt, or null.', schema: Receipt.nullable() },
    computeUnits: 15,
    cache: { kind: 'when-found' },
  }),
  defineRpcMethod({
    name: 'eth_sendRawTransaction',
    summary: 'Broadcasts a signed transaction and returns its hash.',
    description:
      'Submits a transaction signed by the caller (RLP or typed-envelope bytes) to the network. The node checks nonce, fees and balance and answers with its own error when it refuses. The hash is returned before the transaction is mined.',
    category: 'Transactions',
    params: [{ name: 'signedTransaction', required: true, schema: NonEmptyHexData, description: 'The signed transaction as hex data.' }],
    result: { name: 'transactionHash', description: 'The hash of the transaction.', schema: Hash32 },
    computeUnits: 250,
    idempotent: false,
  }),
];
