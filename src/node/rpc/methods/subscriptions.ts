import { z } from 'zod';
import { MAX_TRANSACTION_FILTER_ADDRESSES } from '../limits.ts';
import { defineRpcMethod } from '../method.ts';
import { Bool, HexId, kind } from '../schemas/primitives.ts';
import { MinedTransactionsFilter, PendingTransactionsFilter, SubscriptionLogFilter } from '../schemas/requests.ts';

// Subscriptions push notifications over a WebSocket (docs/json-rpc.md#subscriptions): new heads,
// logs, pending transactions, and the incumbent's filtered transaction feeds. Each notification
// costs compute units; a connection holds at most 100. The vendor kinds are crucible_<x>, and
// alchemy_<x> names the same kind, as for vendor methods (docs/json-rpc.md#vendor-methods):
// alchemy-sdk's `ws.on({ method: AlchemySubscription.… })` sends the alchemy_ names.

const subscriptionKinds = [
  'newHeads',
  'logs',
  'newPendingTransactions',
  'crucible_pendingTransactions',
  'crucible_minedTransactions',
  'alchemy_pendingTransactions',
  'alchemy_minedTransactions',
] as const;
type SubscriptionKind = (typeof subscriptionKinds)[number];

const kindPhrase =
  'must be "newHeads", "logs", "newPendingTransactions", "crucible_pendingTransactions" or "crucible_minedTransactions" (also named alchemy_pendingTransactions, alchemy_minedTransactions)';
const SubscriptionKindSchema = kind(z.enum(subscriptionKinds, { error: kindPhrase }).describe('What to subscribe to.'), 'subscription kind', kindPhrase);

const optionsPhrase = 'must be a filter object (for "logs" and the transactions kinds) or true/false (for "newPendingTransactions")';
const SubscriptionOptions = kind(
  z
    .union([SubscriptionLogFilter, PendingTransactionsFilter, MinedTransactionsFilter, Bool], { error: optionsPhrase })
    .describe('The filter of the kind, or whether pending transactions come in full.'),
  'filter or boolean',
  optionsPhrase,
);

/** What each kind takes as its second param: nothing, one filter object (validated by its own schema), or a boolean. */
const optionsOf: Record<SubscriptionKind, { takes: 'none' } | { takes: 'object'; schema: z.ZodType; what: string } | { takes: 'boolean' }> = {
  newHeads: { takes: 'none' },
  logs: { takes: 'object', schema: SubscriptionLogFilter, what: 'a logs filter {"address", "topics"}' },
  newPendingTransactions: { takes: 'boolean' },
  crucible_pendingTransactions: { takes: 'object', schema: PendingTransactionsFilter, what: 'a filter {"fromAddress", "toAddress", "hashesOnly"}' },
  alchemy_pendingTransactions: { takes: 'object', schema: PendingTransactionsFilter, what: 'a filter {"fromAddress", "toAddress", "hashesOnly"}' },
  crucible_minedTransactions: { takes: 'object', schema: MinedTransactionsFilter, what: 'a filter {"addresses", "includeRemoved", "hashesOnly"}' },
  alchemy_minedTransactions: { takes: 'object', schema: MinedTransactionsFilter, what: 'a filter {"addresses", "includeRemoved", "hashesOnly"}' },
};

export const subscriptionMethods = [
  defineRpcMethod({
    name: 'eth_subscribe',
    summary: 'Subscribes to new heads, logs, pending or mined transactions (WebSocket only).',
    description:
      '"newHeads" sends each new block header; "logs" sends each new log that matches the optional {address, topics} filter (and again with removed: true when a reorganisation undoes it); "newPendingTransactions" sends the hash (or, with true, the whole transaction) of each transaction entering the mempool. ' +
      '"crucible_pendingTransactions" (also "alchemy_pendingTransactions") sends each pending transaction sent from any of fromAddress or to any of toAddress (neither: every one), whole or, with hashesOnly, its hash. ' +
      '"crucible_minedTransactions" (also "alchemy_minedTransactions") sends {removed: false, transaction} for each transaction of each new block that matches one of addresses [{from?, to?}] (none: every one), and with includeRemoved {removed: true, transaction} for those of blocks a reorganisation replaced; with hashesOnly the transaction is {hash}. ' +
      `The transactions filters name at most ${MAX_TRANSACTION_FILTER_ADDRESSES.toLocaleString('en-US')} addresses in all and compare them case-insensitively. Notifications arrive as eth_subscription messages carrying the subscription id.`,
    category: 'Subscriptions',
    params: [
      {
        name: 'subscription',
        required: true,
        schema: SubscriptionKindSchema,
        description: '"newHeads", "logs", "newPendingTransactions", "crucible_pendingTransactions" or "crucible_minedTransactions" (or their alchemy_ names).',
      },
      {
        name: 'options',
        required: false,
        schema: SubscriptionOptions,
        description:
          'For "logs": {address, topics}. For "newPendingTransactions": true for full transactions. For pending transactions: {fromAddress, toAddress, hashesOnly}. For mined transactions: {addresses: [{from, to}], includeRemoved, hashesOnly}.',
      },
    ],
    result: { name: 'subscriptionId', description: 'The id that notifications carry and eth_unsubscribe takes.', schema: HexId },
    computeUnits: 10,
    notificationComputeUnits: 10,
    transport: 'websocket',
    idempotent: false,
    checkParams: ([subscription, options]) => {
      if (options === undefined || options === null) return null;
      const rule = optionsOf[subscription as SubscriptionKind];
      if (rule.takes === 'none') return { index: 1, problem: `is not accepted for "${subscription}"` };
      if (rule.takes === 'boolean') return typeof options === 'boolean' ? null : { index: 1, problem: `must be true or false for "${subscription}"` };
      if (typeof options !== 'object' || Array.isArray(options)) return { index: 1, problem: `must be ${rule.what} for "${subscription}"` };
      // The options union lets any object through (its members are loose): the kind's own schema decides.
      const parsed = rule.schema.safeParse(options);
      return parsed.success ? null : { issue: { ...parsed.error.issues[0]!, path: [1, ...parsed.error.issues[0]!.path] } };
    },
  }),
  defineRpcMethod({
    name: 'eth_unsubscribe',
    summary: 'Cancels a subscription (WebSocket only).',
    description: 'Stops the notifications of a subscription made on the same connection; true when it existed.',
    category: 'Subscriptions',
    params: [{ name: 'subscriptionId', required: true, schema: HexId, description: 'The id eth_subscribe returned.' }],
    result: { name: 'cancelled', description: 'true when the subscription existed.', schema: z.boolean() },
    computeUnits: 10,
    transport: 'websocket',
    idempotent: false,
  }),
];
