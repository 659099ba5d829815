import { randomBytes } from 'node:crypto';

// What a subscriber receives (docs/json-rpc.md#subscriptions): its own subscription id, and eth_subscription
// messages carrying it, in the shape geth and anvil send.

/** A new subscription id: `0x` and 32 hex digits from 128 random bits, so ids cannot be guessed across connections. */
export function newSubscriptionId(): string {
  return `0x${randomBytes(16).toString('hex')}`;
}

const tail = Buffer.from('}}');

/**
 * The bytes of a subscription's notifications up to their result, encoded once when the
 * subscription is made: a fan-out to many subscribers then only copies bytes per message.
 */
export function notificationHead(subscriptionId: string): Buffer {
  return Buffer.from(`{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"${subscriptionId}","result":`, 'latin1');
}

/**
 * The notification of one event to one subscriber, as the bytes of a text message: the
 * subscription's `head` and the event's `result` JSON, which is encoded once for every subscriber
 * of its topic.
 */
export function notificationMessage(head: Buffer, result: Buffer): Buffer {
  return Buffer.concat([head, result, tail], head.length + result.length + tail.length);
}
