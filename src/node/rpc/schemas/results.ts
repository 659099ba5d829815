import { z } from 'zod';
import { Address, Hash32, HexData, HexQuantity, StorageSlot, titled } from './primitives.ts';

// Result shapes for the docs and the OpenRPC document. The gateway relays the node's answers and
// does not validate them, so these name the fields clients rely on and leave objects open: chains
// add fields (L2 fee fields, withdrawals, blob gas) that pass through.

const Quantity = HexQuantity;

export const Log = titled(
  z.looseObject({
    address: Address,
    topics: z.array(Hash32),
    data: HexData,
    blockNumber: Quantity.nullable(),
    blockHash: Hash32.nullable(),
    transactionHash: Hash32.nullable(),
    transactionIndex: Quantity.nullable(),
    logIndex: Quantity.nullable(),
    removed: z.boolean().describe('true when a reorganisation removed the log.'),
  }),
  'log',
);

export const Transaction = titled(
  z.looseObject({
    hash: Hash32,
    nonce: Quantity,
    blockHash: Hash32.nullable().describe('null while pending.'),
    blockNumber: Quantity.nullable(),
    transactionIndex: Quantity.nullable(),
    from: Address,
    to: Address.nullable().describe('null for a contract creation.'),
    value: Quantity,
    gas: Quantity,
    input: HexData,
    type: Quantity,
    gasPrice: Quantity.optional(),
    maxFeePerGas: Quantity.optional(),
    maxPriorityFeePerGas: Quantity.optional(),
    chainId: Quantity.optional(),
    v: Quantity.optional(),
    r: Quantity.optional(),
    s: Quantity.optional(),
  }),
  'transaction',
);

export const Receipt = titled(
  z.looseObject({
    transactionHash: Hash32,
    transactionIndex: Quantity,
    blockHash: Hash32,
    blockNumber: Quantity,
    from: Address,
    to: Address.nullable(),
    contractAddress: Address.nullable().describe('The created contract, or null.'),
    cumulativeGasUsed: Quantity,
    gasUsed: Quantity,
    effectiveGasPrice: Quantity,
    logs: z.array(Log),
    logsBloom: HexData,
    type: Quantity,
    status: Quantity.describe('0x1 success, 0x0 failure.'),
  }),
  'receipt',
);

export const Block = titled(
  z.looseObject({
    number: Quantity.nullable(),
    hash: Hash32.nullable(),
    parentHash: Hash32,
    timestamp: Quantity,
    miner: Address,
    gasLimit: Quantity,
    gasUsed: Quantity,
    baseFeePerGas: Quantity.optional(),
    stateRoot: Hash32,
    transactionsRoot: Hash32,
    receiptsRoot: Hash32,
    logsBloom: HexData,
    extraData: HexData,
    size: Quantity,
    transactions: z.union([z.array(Hash32), z.array(Transaction)]).describe('Hashes, or full transactions when asked for.'),
    uncles: z.array(Hash32),
  }),
  'block',
);

export const FeeHistory = titled(
  z.looseObject({
    oldestBlock: Quantity,
    baseFeePerGas: z.array(Quantity).describe('One more entry than blocks: the next block’s base fee.'),
    gasUsedRatio: z.array(z.number()),
    reward: z.array(z.array(Quantity)).optional().describe('Per block, the priority fee at each asked percentile.'),
    baseFeePerBlobGas: z.array(Quantity).optional(),
    blobGasUsedRatio: z.array(z.number()).optional(),
  }),
  'fee history',
);

export const SyncStatus = titled(
  z.union([z.literal(false).describe('Not syncing.'), z.looseObject({ startingBlock: Quantity, currentBlock: Quantity, highestBlock: Quantity })]),
  'false or sync progress',
);

export const AccountProof = titled(
  z.looseObject({
    address: Address,
    accountProof: z.array(HexData),
    balance: Quantity,
    codeHash: Hash32,
    nonce: Quantity,
    storageHash: Hash32,
    storageProof: z.array(z.looseObject({ key: StorageSlot, value: Quantity, proof: z.array(HexData) })),
  }),
  'account proof',
);

export const FilterChanges = titled(
  z.union([z.array(Hash32).describe('Block or transaction hashes (block and pending-transaction filters).'), z.array(Log)]),
  'list of hashes or logs',
);
