import { z } from 'zod';
import { MAX_LOGS_FILTER_ADDRESSES, MAX_LOGS_FILTER_TOPICS } from '../limits.ts';
import { Address, BlockTagOrNumber, Hash32, HexData, HexQuantity, kind, StorageSlot } from './primitives.ts';

// The object params: transaction call objects, state overrides, log filters. Objects are loose:
// fields a node knows and this schema does not (new transaction types) pass through unchanged.

const objectPhrase = (what: string) => `must be ${what}`;

const AccessList = z
  .array(z.object({ address: Address, storageKeys: z.array(Hash32, { error: 'must be a list of 32-byte hashes' }) }), {
    error: 'must be a list of { address, storageKeys }',
  })
  .describe('EIP-2930 access list.');

const callPhrase = objectPhrase('a transaction call object such as {"to": "0x…", "data": "0x…"}');

/** eth_call and eth_estimateGas: the transaction to run; every field is optional (null is absent, as nodes read it). */
export const TransactionCall = kind(
  z
    .looseObject(
      {
        from: Address.nullish(),
        to: Address.nullish().describe('Recipient; null or absent creates a contract.'),
        gas: HexQuantity.nullish(),
        gasPrice: HexQuantity.nullish(),
        maxFeePerGas: HexQuantity.nullish(),
        maxPriorityFeePerGas: HexQuantity.nullish(),
        maxFeePerBlobGas: HexQuantity.nullish(),
        value: HexQuantity.nullish(),
        nonce: HexQuantity.nullish(),
        type: HexQuantity.nullish(),
        chainId: HexQuantity.nullish(),
        data: HexData.nullish(),
        input: HexData.nullish().describe('The same as data; nodes prefer input when both are set.'),
        accessList: AccessList.nullish(),
        blobVersionedHashes: z.array(Hash32, { error: 'must be a list of 32-byte hashes' }).nullish(),
      },
      { error: callPhrase },
    )
    .describe('The transaction to execute; fields are optional, numbers are hex quantities.'),
  'transaction call object',
  callPhrase,
);

const overridePhrase = objectPhrase('an object mapping addresses to {balance, nonce, code, state, stateDiff}');

/** Geth's state override set: temporary account changes for one eth_call or eth_estimateGas. */
export const StateOverride = kind(
  z
    .record(
      Address,
      z.looseObject({
        balance: HexQuantity.optional(),
        nonce: HexQuantity.optional(),
        code: HexData.optional(),
        state: z.record(StorageSlot, StorageSlot).optional(),
        stateDiff: z.record(StorageSlot, StorageSlot).optional(),
      }),
      { error: overridePhrase },
    )
    .describe('Accounts to override for this call only, keyed by address.'),
  'state override set',
  overridePhrase,
);

/** A list of at most `max` items; a longer one is refused saying how many it has and the limit. */
const capped = <T extends z.ZodType>(item: T, max: number, items: string, limit: string) =>
  z.array(item).max(max, { error: (issue) => `has ${(issue.input as unknown[]).length} ${items}; ${limit} at most ${max}` });

const AddressOrAddresses = z.union([Address, capped(Address, MAX_LOGS_FILTER_ADDRESSES, 'addresses', 'a filter may name')], {
  error: 'must be an address or a list of addresses',
});

/** A topic position: any (null), one topic, or any of several. */
const TopicFilter = z.union([z.null(), Hash32, capped(Hash32.nullable(), MAX_LOGS_FILTER_TOPICS, 'topics', 'a topic position may list')], {
  error: 'must be null, a 32-byte topic, or a list of topics',
});
const Topics = z.array(TopicFilter, { error: 'must be a list of topic filters' }).max(4, { error: 'must have at most 4 positions' });

const filterPhrase = objectPhrase('a log filter object such as {"fromBlock": "0x…", "toBlock": "0x…", "address": "0x…", "topics": […]}');

/** eth_getLogs and eth_newFilter: a block range (or one block by hash), addresses and topics. */
export const LogFilter = kind(
  z
    .looseObject(
      {
        fromBlock: BlockTagOrNumber.optional(),
        toBlock: BlockTagOrNumber.optional(),
        address: AddressOrAddresses.optional(),
        topics: Topics.optional(),
        blockHash: Hash32.optional().describe('One block by hash, instead of fromBlock and toBlock.'),
      },
      { error: filterPhrase },
    )
    .refine((filter) => filter.blockHash === undefined || (filter.fromBlock === undefined && filter.toBlock === undefined), {
      error: 'cannot have blockHash together with fromBlock or toBlock',
      path: ['blockHash'],
    })
    .describe('Which logs: fromBlock and toBlock (default "latest") or blockHash, and optionally addresses and topics.'),
  'log filter',
  filterPhrase,
);
export type LogFilter = z.infer<typeof LogFilter>;

const subscriptionFilterPhrase = objectPhrase('a logs subscription filter such as {"address": "0x…", "topics": […]}');

/** eth_subscribe("logs", …): addresses and topics, no block range. */
export const SubscriptionLogFilter = kind(
  z
    .looseObject({ address: AddressOrAddresses.optional(), topics: Topics.optional() }, { error: subscriptionFilterPhrase })
    .describe('Which new logs to send: addresses and topics.'),
  'logs subscription filter',
  subscriptionFilterPhrase,
);

const percentilesPhrase = 'must be a list of increasing numbers from 0 to 100';
const percentileRange = 'must be a number from 0 to 100';

/** eth_feeHistory's reward percentiles. */
export const RewardPercentiles = kind(
  z
    .array(z.number({ error: percentileRange }).min(0, { error: percentileRange }).max(100, { error: percentileRange }), { error: percentilesPhrase })
    .max(100, { error: 'must have at most 100 percentiles' })
    .refine((list) => list.every((value, i) => i === 0 || value >= list[i - 1]!), { error: percentilesPhrase })
    .describe('Percentiles of priority fees to sample in each block, increasing.'),
  'list of percentiles',
  percentilesPhrase,
);

/** eth_feeHistory's block count: geth and most nodes take a hex quantity or a plain integer. */
export const BlockCount = kind(
  z
    .union([HexQuantity, z.int().min(1).max(1024)], { error: 'must be a hex quantity or an integer from 1 to 1024' })
    .describe('How many blocks, as a hex quantity or an integer.'),
  'hex quantity or integer',
  'must be a hex quantity or an integer from 1 to 1024',
);
