import { parseTransaction, type Hex } from 'viem';
import { z } from 'zod';
import { defineRpcMethod } from '../method.ts';
import { Bool, Hash32, HexQuantity, NonEmptyHexData, titled } from '../schemas/primitives.ts';

// Private transactions (docs/json-rpc.md#private-transactions), category 'Transactions': the
// incumbent's eth_sendPrivateTransaction and eth_cancelPrivateTransaction, which alchemy-sdk's
// `transact` namespace sends by those names. Each is crucible_<x>, also callable as alchemy_<x> and
// by its eth_ name. On a devnet (anvil) the gateway answers them itself (src/node/private-transactions.ts);
// on any other node they are passed to it by their eth_ names (`upstreamAs`): the node's own answer.

const PrivateTransactionRequest = titled(
  z.strictObject({
    tx: NonEmptyHexData.describe('The signed transaction as hex data, as eth_sendRawTransaction takes it.'),
    maxBlockNumber: HexQuantity.optional().describe(
      'The highest block the transaction may be mined in; a devnet drops it once a later block is mined without it. Default: 25 blocks after the head it was sent at.',
    ),
    preferences: z
      .looseObject({ fast: Bool.optional() })
      .optional()
      .describe('Relay preferences; { fast: true } cannot be cancelled. A devnet keeps only `fast`; a node passed the call gets them all.'),
  }),
  'private transaction request',
);

const CancelRequest = titled(z.strictObject({ txHash: Hash32 }), 'private transaction cancellation');

/** The call as the node gets it: by its eth_ name, params unchanged. */
const sentAs = (method: string) => ({ method, params: (params: readonly unknown[]) => [...params], answer: (result: unknown) => result as never });

export const privateTransactionMethods = [
  defineRpcMethod({
    name: 'crucible_sendPrivateTransaction',
    aliases: ['eth_sendPrivateTransaction'],
    summary: 'Sends a signed transaction that no pending-transactions feed shows, and returns its hash.',
    description:
      'On a devnet (anvil): the transaction goes to the node, is left out of every pending feed the gateway serves (alchemy_pendingTransactions, newPendingTransactions) until it is mined, and is dropped from the node if no block up to maxBlockNumber holds it. On another node the call is passed to it as eth_sendPrivateTransaction, and its answer (or its error, where it has no such method) is returned. Also callable as alchemy_sendPrivateTransaction and eth_sendPrivateTransaction.',
    category: 'Transactions',
    params: [
      {
        name: 'request',
        required: true,
        schema: PrivateTransactionRequest,
        description:
          '{ tx, maxBlockNumber?, preferences? }: the signed transaction (hex); the last block it may be mined in (hex, default 25 blocks past the head); { fast? } and the relay’s other preferences.',
      },
    ],
    result: { name: 'transactionHash', description: 'The hash of the transaction (Keccak-256 of its bytes).', schema: Hash32 },
    computeUnits: 250,
    idempotent: false,
    upstreamAs: sentAs('eth_sendPrivateTransaction'),
    checkParams: ([request]) => {
      try {
        parseTransaction((request as { tx: Hex }).tx);
        return null;
      } catch {
        return { index: 0, problem: 'tx must be a signed transaction (RLP or a typed envelope)' };
      }
    },
  }),
  defineRpcMethod({
    name: 'crucible_cancelPrivateTransaction',
    aliases: ['eth_cancelPrivateTransaction'],
    summary: 'Cancels a private transaction not yet mined.',
    description:
      'On a devnet: true when the transaction was sent with sendPrivateTransaction (without fast), was still pending and is now dropped from the node; false when it is mined, unknown, already dropped, or fast. On another node the call is passed to it as eth_cancelPrivateTransaction. Also callable as alchemy_cancelPrivateTransaction and eth_cancelPrivateTransaction.',
    category: 'Transactions',
    params: [{ name: 'request', required: true, schema: CancelRequest, description: '{ txHash }: the hash sendPrivateTransaction answered.' }],
    result: { name: 'cancelled', description: 'Whether the transaction was cancelled.', schema: z.boolean() },
    computeUnits: 250,
    idempotent: false,
    upstreamAs: sentAs('eth_cancelPrivateTransaction'),
  }),
];
