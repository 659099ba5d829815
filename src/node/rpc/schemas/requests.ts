import { z } from 'zod';
import { MAX_LOGS_FILTER_ADDRESSES, MAX_LOGS_FILTER_TOPICS, MAX_TRANSACTION_FILTER_ADDRESSES } from '../limits.ts';
import { Address, BlockTagOrNumber, Bool, Hash32, HexData, HexQuantity, kind, StorageSlot } from './primitives.ts';

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

/** How many addresses a transactions filter names, and the refusal of more than the limit. */
const tooManyAddresses = (count: number) => `has ${count} addresses; a transactions filter may name at most ${MAX_TRANSACTION_FILTER_ADDRESSES} in total`;

const pendingFilterPhrase = objectPhrase('a pending transactions filter such as {"fromAddress": "0x…", "toAddress": ["0x…"], "hashesOnly": true}');

const addressCount = (value: string | readonly string[] | null | undefined) => (value === undefined || value === null ? 0 : [value].flat().length);

/** eth_subscribe("alchemy_pendingTransactions", …): senders and recipients (either matches), and whether only hashes are sent. */
export const PendingTransactionsFilter = kind(
  z
    .looseObject(
      {
        fromAddress: AddressOrAddresses.nullish().describe('Send transactions from this address or any of these.'),
        toAddress: AddressOrAddresses.nullish().describe('Send transactions to this address or any of these.'),
        hashesOnly: Bool.nullish().describe("true: send only each transaction's hash. Default false: the whole transaction."),
      },
      { error: pendingFilterPhrase },
    )
    .refine((filter) => addressCount(filter.fromAddress) + addressCount(filter.toAddress) <= MAX_TRANSACTION_FILTER_ADDRESSES, {
      error: (issue) => {
        const filter = issue.input as { fromAddress?: string | string[]; toAddress?: string | string[] };
        return tooManyAddresses(addressCount(filter.fromAddress) + addressCount(filter.toAddress));
      },
    })
    .describe('Which pending transactions: from any fromAddress or to any toAddress (both absent: every one).'),
  'pending transactions filter',
  pendingFilterPhrase,
);
export type PendingTransactionsFilter = z.infer<typeof PendingTransactionsFilter>;

const minedFilterPhrase = objectPhrase('a mined transactions filter such as {"addresses": [{"from": "0x…", "to": "0x…"}], "includeRemoved": true}');

/** One entry of a mined transactions filter: a sender, a recipient, or both (then a transaction must have both). */
const FromTo = z
  .looseObject({ from: Address.nullish(), to: Address.nullish() }, { error: 'must be {"from", "to"} with at least one of them' })
  .refine((entry) => (entry.from ?? entry.to ?? null) !== null, { error: 'must have "from", "to" or both' });

const entryAddresses = (entries: ReadonlyArray<{ from?: string | null; to?: string | null }> | null | undefined) =>
  (entries ?? []).reduce((count, entry) => count + (entry.from ? 1 : 0) + (entry.to ? 1 : 0), 0);

/** eth_subscribe("alchemy_minedTransactions", …): which senders and recipients, removed transactions, hashes only. */
export const MinedTransactionsFilter = kind(
  z
    .looseObject(
      {
        addresses: z
          .array(FromTo, { error: 'must be a list of {"from", "to"}' })
          .nullish()
          .refine((entries) => entryAddresses(entries) <= MAX_TRANSACTION_FILTER_ADDRESSES, {
            error: (issue) => tooManyAddresses(entryAddresses(issue.input as Array<{ from?: string; to?: string }>)),
          })
          .describe(
            'A transaction matches an entry when it is from its "from" and to its "to" (those given); any entry will do. Absent or empty: every transaction.',
          ),
        includeRemoved: Bool.nullish().describe('true: also send the transactions of blocks a reorganisation removed, with removed: true. Default false.'),
        hashesOnly: Bool.nullish().describe('true: send {removed, transaction: {hash}}. Default false: the whole transaction.'),
      },
      { error: minedFilterPhrase },
    )
    .describe('Which mined transactions: the {from, to} entries any of which matches, removed ones, hashes only.'),
  'mined transactions filter',
  minedFilterPhrase,
);
export type MinedTransactionsFilter = z.infer<typeof MinedTransactionsFilter>;
