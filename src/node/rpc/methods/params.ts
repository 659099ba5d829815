import { Address, BlockParam, BlockTagOrNumber, Bool, Hash32, HexQuantity } from '../schemas/primitives.ts';
import type { RpcParam } from '../method.ts';

// Params several methods share, so each is named and described once.

/** The block whose state is read (EIP-1898 objects accepted); omitted means "latest". */
export const stateBlockParam: RpcParam = {
  name: 'blockTag',
  required: false,
  schema: BlockParam,
  description: 'The block whose state is read: a tag, a hex number, a block hash, or {"blockHash"} / {"blockNumber"} (EIP-1898). Default "latest".',
  default: 'latest',
};

/** A block by tag or number (the ByNumber lookups). */
export const blockNumberParam: RpcParam = {
  name: 'blockTag',
  required: true,
  schema: BlockTagOrNumber,
  description: 'A block tag ("latest", "earliest", "pending", "safe", "finalized") or a hex block number.',
};

export const blockHashParam: RpcParam = { name: 'blockHash', required: true, schema: Hash32, description: 'The hash of the block.' };

export const transactionHashParam: RpcParam = { name: 'transactionHash', required: true, schema: Hash32, description: 'The hash of the transaction.' };

export const accountParam: RpcParam = { name: 'address', required: true, schema: Address, description: 'The account.' };

export const indexParam: RpcParam = { name: 'index', required: true, schema: HexQuantity, description: 'The position in the block, as a hex quantity.' };

export const fullTransactionsParam: RpcParam = {
  name: 'fullTransactions',
  required: false,
  schema: Bool,
  description: 'true for full transaction objects, false for their hashes. Default false.',
  default: false,
};
