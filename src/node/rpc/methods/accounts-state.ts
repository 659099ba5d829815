import { z } from 'zod';
import { defineRpcMethod } from '../method.ts';
import { Address, HexData, HexQuantity, kind, StorageSlot } from '../schemas/primitives.ts';
import { AccountProof } from '../schemas/results.ts';
import { accountParam, stateBlockParam } from './params.ts';

// Account state at a block: balances, code, storage, nonces, proofs. The block param is the last,
// optional, and defaults to "latest"; a block far enough below the head makes the answer cacheable.

const storageKeysPhrase = 'must be a list of storage slots';
const StorageKeys = kind(z.array(StorageSlot, { error: storageKeysPhrase }).describe('Storage keys.'), 'list of storage slots', storageKeysPhrase);

export const accountsStateMethods = [
  defineRpcMethod({
    name: 'eth_getBalance',
    summary: 'Returns the balance of an account in wei.',
    description:
      'The native-currency balance of the address at the given block. Older blocks need an archive upstream; a node without the state answers with its own error.',
    category: 'Accounts and state',
    params: [accountParam, stateBlockParam],
    result: { name: 'balance', description: 'The balance in wei, as a hex quantity.', schema: HexQuantity },
    computeUnits: 19,
    cache: { kind: 'when-final', blockParam: 1 },
  }),
  defineRpcMethod({
    name: 'eth_getCode',
    summary: 'Returns the code deployed at an address.',
    description: 'The runtime bytecode of the contract at the address, or "0x" for an account without code, at the given block.',
    category: 'Accounts and state',
    params: [accountParam, stateBlockParam],
    result: { name: 'code', description: 'The bytecode as hex data.', schema: HexData },
    computeUnits: 19,
    cache: { kind: 'when-final', blockParam: 1 },
  }),
  defineRpcMethod({
    name: 'eth_getStorageAt',
    summary: 'Returns the value of one storage slot of a contract.',
    description: 'The 32-byte word stored at the slot of the contract at the given block. Slots may be given padded to 32 bytes or not.',
    category: 'Accounts and state',
    params: [accountParam, { name: 'slot', required: true, schema: StorageSlot, description: 'The storage slot.' }, stateBlockParam],
    result: { name: 'value', description: 'The stored word, 32 bytes of hex data.', schema: HexData },
    computeUnits: 17,
    cache: { kind: 'when-final', blockParam: 2 },
  }),
  defineRpcMethod({
    name: 'eth_getTransactionCount',
    summary: 'Returns the number of transactions an account has sent (its nonce).',
    description:
      'The nonce of the address at the given block. With "pending" it counts the transactions the node holds in its mempool too, which is what a wallet uses as the next nonce.',
    category: 'Accounts and state',
    params: [accountParam, stateBlockParam],
    result: { name: 'nonce', description: 'The transaction count as a hex quantity.', schema: HexQuantity },
    computeUnits: 26,
    cache: { kind: 'when-final', blockParam: 1 },
  }),
  defineRpcMethod({
    name: 'eth_getProof',
    summary: 'Returns an account and storage Merkle proof (EIP-1186).',
    description:
      'The account fields of the address and the values of the given storage keys, each with the Merkle proof that links it to the state root of the block.',
    category: 'Accounts and state',
    params: [
      accountParam,
      { name: 'storageKeys', required: true, schema: StorageKeys, description: 'The storage keys to prove; may be empty.' },
      stateBlockParam,
    ],
    result: { name: 'proof', description: 'The account and storage proofs.', schema: AccountProof },
    computeUnits: 21,
    cache: { kind: 'when-final', blockParam: 2 },
  }),
  defineRpcMethod({
    name: 'eth_accounts',
    summary: 'Returns the accounts the node holds keys for: always an empty list here.',
    description:
      'Crucible never signs with node-held keys, so this answers [] without asking a node. Sign transactions in the wallet or client and send them with eth_sendRawTransaction.',
    category: 'Accounts and state',
    params: [],
    result: { name: 'accounts', description: 'An empty list.', schema: z.array(Address).max(0) },
    computeUnits: 10,
    answer: () => [],
  }),
];
