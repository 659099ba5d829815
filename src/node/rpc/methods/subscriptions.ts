import { z } from 'zod';
import { defineRpcMethod } from '../method.ts';
import { Bool, HexId, kind } from '../schemas/primitives.ts';
import { SubscriptionLogFilter } from '../schemas/requests.ts';

// Subscriptions push notifications over a WebSocket (docs/json-rpc.md#subscriptions): new heads, logs, pending
// transactions. Each notification costs compute units; a connection holds at most 100.

const subscriptionKinds = ['newHeads', 'logs', 'newPendingTransactions'] as const;
type SubscriptionKind = (typeof subscriptionKinds)[number];

const kindPhrase = 'must be "newHeads", "logs" or "newPendingTransactions"';
const SubscriptionKindSchema = kind(z.enum(subscriptionKinds, { error: kindPhrase }).describe('What to subscribe to.'), 'subscription kind', kindPhrase);

const optionsPhrase = 'must be a logs filter {"address", "topics"} (for "logs") or true/false (for "newPendingTransactions")';
const SubscriptionOptions = kind(
  z.union([SubscriptionLogFilter, Bool], { error: optionsPhrase }).describe('The logs filter, or whether pending transactions come in full.'),
  'logs filter or boolean',
  optionsPhrase,
);

/** What each kind takes as its second param: nothing, a logs filter, or a boolean. */
const optionsOf: Record<SubscriptionKind, 'none' | 'object' | 'boolean'> = { newHeads: 'none', logs: 'object', newPendingTransactions: 'boolean' };

export const subscriptionMethods = [
  defineRpcMethod({
    name: 'eth_subscribe',
    summary: 'Subscribes to new heads, logs or pending transactions (WebSocket only).',
    description:
      '"newHeads" sends each new block header; "logs" sends each new log that matches the optional {address, topics} filter (and again with removed: true when a reorganisation undoes it); "newPendingTransactions" sends the hash (or, with true, the whole transaction) of each transaction entering the mempool. Notifications arrive as eth_subscription messages carrying the subscription id.',
    category: 'Subscriptions',
    params: [
      { name: 'subscription', required: true, schema: SubscriptionKindSchema, description: '"newHeads", "logs" or "newPendingTransactions".' },
      {
        name: 'options',
        required: false,
        schema: SubscriptionOptions,
        description: 'For "logs": {address, topics}. For "newPendingTransactions": true for full transactions.',
      },
    ],
    result: { name: 'subscriptionId', description: 'The id that notifications carry and eth_unsubscribe takes.', schema: HexId },
    computeUnits: 10,
    notificationComputeUnits: 10,
    transport: 'websocket',
    idempotent: false,
    checkParams: ([subscription, options]) => {
      if (options === undefined || options === null) return null;
      const takes = optionsOf[subscription as SubscriptionKind];
      if (takes === 'none') return { index: 1, problem: `is not accepted for "${subscription}"` };
      if (takes === 'object' && typeof options !== 'object') return { index: 1, problem: 'must be a logs filter {"address", "topics"} for "logs"' };
      if (takes === 'boolean' && typeof options !== 'boolean') return { index: 1, problem: 'must be true or false for "newPendingTransactions"' };
      return null;
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
