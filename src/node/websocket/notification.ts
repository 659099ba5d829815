import { randomBytes } from 'node:crypto';

// What a subscriber receives (platform §3): its own subscription id, and eth_subscription
// messages carrying it, in the shape geth and anvil send.

/** A new subscription id: `0x` and 32 hex digits from 128 random bits, so ids cannot be guessed across connections. */
export function newSubscriptionId(): string {
  return `0x${randomBytes(16).toString('hex')}`;
}

const head = Buffer.from('{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"');
const middle = Buffer.from('","result":');
const tail = Buffer.from('}}');

/**
 * The notification of one event to one subscriber, as the bytes of a text message. `result` is the
 * event's JSON, encoded once for every subscriber of its topic: only the id differs between them,
 * so each message is a copy of bytes rather than a string to encode again.
 */
export function notificationMessage(subscriptionId: string, result: Buffer): Buffer {
  return Buffer.concat([head, Buffer.from(subscriptionId, 'latin1'), middle, result, tail]);
}
