import WebSocket from 'ws';
import type { Logger } from '../../api/operation.ts';
import type { ExtraMethods, NodeGateway, NodeSession } from '../gateway.ts';
import { rpcFailure } from '../rpc/errors.ts';
import type { RpcOutcome, RpcReply } from '../rpc/jsonrpc.ts';
import { MAX_SUBSCRIPTIONS_PER_CONNECTION } from '../rpc/limits.ts';
import type { WebSocketLimits } from './limits.ts';
import { newSubscriptionId, notificationHead, notificationMessage } from './notification.ts';
import { unpaidRefusal, withRequestIds } from './request-ids.ts';
import { subscriptionTopicOf } from './subscription-topic.ts';
import type { NotificationCharges } from './notification-charges.ts';
import type { SubscriptionFeed } from './transaction-feed.ts';

// One client's WebSocket on `{node_url}/v2/<key>` (docs/json-rpc.md#websocket): every text message is a JSON-RPC
// message answered by the gateway as over HTTP (same methods, errors and compute units), plus
// eth_subscribe and eth_unsubscribe answered here over the network's upstream feed. Messages are
// answered concurrently (clients match answers by id); notifications of a subscription arrive in
// order, and never before the answer that gave its id. Each message pays its least cost before it
// is read, and each open subscription is charged over time (README "Server limits").

/** What usage records name the charge of a subscription kept open for an interval. */
export const SUBSCRIPTION_UPKEEP_METHOD = 'eth_subscribe (open)';

/** Events a subscription receives between the upstream's confirmation and the answer that gives its id. */
const MAX_EARLY_EVENTS = 16;
/** Notifications waiting for their charge (a limiter that stopped answering): beyond it the client is let go like a slow reader. */
const MAX_WAITING_DELIVERIES = 10_000;
/** A close frame's reason is at most 123 bytes. */
const MAX_CLOSE_REASON_BYTES = 123;

export interface NodeConnectionOptions {
  gateway: NodeGateway;
  session: NodeSession;
  /** The key and Origin the connection was opened with, checked again at each keepalive. */
  credentials: { key: string; origin: string | null };
  feed: SubscriptionFeed;
  /** Where notifications are charged, in batches shared by every connection of the process. */
  charges: NotificationCharges;
  /** Counts the caller's distinct topics (README "Server limits"): false when one more does not fit. */
  topics: { acquire(topic: string): Promise<boolean>; release(topic: string): void };
  limits: Pick<WebSocketLimits, 'maxInFlight' | 'maxBufferedBytes' | 'maxJsonDepth' | 'subscriptionChargeIntervalMs'> & {
    maxTopicsPerKey: number;
    /** What each open subscription costs per charge interval after its first; 0: nothing. */
    subscriptionComputeUnits: number;
  };
  logger?: Logger;
}

export interface NodeConnection {
  /**
   * One keepalive tick: a client that did not answer the previous ping is cut off (unless it is
   * waiting on its own answers); then a ping, and the key checked again, so a key disabled or
   * rotated away closes its connections (1008) as it fails its HTTP requests.
   */
  heartbeat(): void;
  /** Checks the key again now (its app was changed in this process): 1008 when it no longer works. */
  recheckKey(): Promise<void>;
  /**
   * One charge interval: each subscription open for a whole interval costs its CUs, from the
   * caller's bucket. A charge that does not fit closes the connection (1013): a client notices a
   * closed connection, where a subscription ended alone would just go quiet.
   */
  chargeSubscriptions(): Promise<void>;
  close(code: number, reason: string): void;
  terminate(): void;
  /** Resolves once the connection is closed and its subscriptions are gone. */
  closed: Promise<void>;
}

interface LocalSubscription {
  id: string;
  /** Its notifications' bytes before the result (notificationHead). */
  head: Buffer;
  /** The answer carrying its id has been sent: notifications may follow. */
  announced: boolean;
  cancelled: boolean;
  /** Events before it was announced, sent right after. */
  early: Buffer[];
  leave: (() => void) | null;
  /** Gives back the caller's count of its topic; null until counted, and once given back. */
  releaseTopic: (() => void) | null;
  /** Made since the last charge interval began: not charged at its end (eth_subscribe paid for it). */
  fresh: boolean;
}

export function serveNodeConnection(ws: WebSocket, options: NodeConnectionOptions): NodeConnection {
  const { gateway, feed, charges, topics, limits, logger, credentials } = options;
  // The caller is read again at each keepalive (its rate or state may change).
  const session: NodeSession = { ...options.session };
  const subscriptions = new Map<string, LocalSubscription>();
  const waiting: string[] = [];
  let inFlight = 0;
  let paused = false;
  let answeredPing = true;
  /** Notifications in the order their events came, each waiting for its charge to be decided. */
  const deliveries: Array<{ subscription: LocalSubscription; result: Buffer; charged: boolean | undefined }> = [];

  // Text messages (JSON-RPC is text), also when the bytes are built as a Buffer.
  const send = (data: string | Buffer) => {
    if (ws.readyState === WebSocket.OPEN) ws.send(data, { binary: false });
  };

  const deliverCharged = () => {
    while (deliveries.length > 0 && deliveries[0]!.charged !== undefined) {
      const { subscription, result, charged } = deliveries.shift()!;
      if (charged && !subscription.cancelled) send(notificationMessage(subscription.head, result));
    }
  };

  const notify = (subscription: LocalSubscription, result: Buffer) => {
    if (ws.readyState !== WebSocket.OPEN) return;
    if (ws.bufferedAmount > limits.maxBufferedBytes || deliveries.length >= MAX_WAITING_DELIVERIES) {
      ws.close(1013, 'notifications are not being delivered fast enough; reconnect and subscribe again');
      return;
    }
    // Each notification costs compute units (docs/json-rpc.md#subscriptions). Over the caller's limit it is dropped for
    // this subscriber, uncharged, and the connection stays open: the next one that fits is sent.
    // One charged while its subscription is being cancelled is not sent after the cancel's answer.
    const delivery = { subscription, result, charged: undefined as boolean | undefined };
    deliveries.push(delivery);
    charges.charge(session, (charged) => {
      delivery.charged = charged;
      deliverCharged();
    });
  };

  const receive = (subscription: LocalSubscription, result: Buffer) => {
    if (subscription.cancelled) return;
    if (subscription.announced) notify(subscription, result);
    else if (subscription.early.length < MAX_EARLY_EVENTS) subscription.early.push(result);
  };

  const announce = (subscription: LocalSubscription) => {
    subscription.announced = true;
    for (const result of subscription.early.splice(0)) receive(subscription, result);
  };

  const cancel = (subscription: LocalSubscription) => {
    subscription.cancelled = true;
    subscriptions.delete(subscription.id);
    subscription.leave?.();
    subscription.releaseTopic?.();
    subscription.releaseTopic = null;
  };

  const subscribe = async (params: unknown[], created: LocalSubscription[]): Promise<RpcOutcome> => {
    // Counted with the ones still being made, so concurrent calls cannot pass the cap together.
    if (subscriptions.size >= MAX_SUBSCRIPTIONS_PER_CONNECTION) return { failure: rpcFailure('too_many_subscriptions') };
    const id = newSubscriptionId();
    const subscription: LocalSubscription = {
      id,
      head: notificationHead(id),
      announced: false,
      cancelled: false,
      early: [],
      leave: null,
      releaseTopic: null,
      fresh: true,
    };
    subscriptions.set(subscription.id, subscription);
    const topic = subscriptionTopicOf(params);
    const counted = await topics.acquire(topic.key).catch((error: unknown) => {
      subscriptions.delete(subscription.id);
      throw error;
    });
    if (!counted) {
      subscriptions.delete(subscription.id);
      return { failure: rpcFailure('too_many_topics', { max: limits.maxTopicsPerKey }) };
    }
    subscription.releaseTopic = () => topics.release(topic.key);
    // The connection closed while the count was taken.
    if (subscription.cancelled) {
      cancel(subscription);
      return { result: subscription.id };
    }
    const joined = await feed.join(topic, (result) => receive(subscription, result));
    if (!joined.ok) {
      cancel(subscription);
      return 'nodeError' in joined ? { nodeError: joined.nodeError } : { failure: rpcFailure('no_healthy_upstream', { network: session.network.id }) };
    }
    // The connection closed while the upstream answered.
    if (subscription.cancelled) joined.leave();
    else {
      subscription.leave = joined.leave;
      created.push(subscription);
    }
    return { result: subscription.id };
  };

  const unsubscribe = (params: unknown[]): RpcOutcome => {
    const subscription = subscriptions.get(String(params[0]).toLowerCase());
    // Ids of other connections are unknown here: false, as for an id that never existed.
    if (!subscription?.leave) return { result: false };
    cancel(subscription);
    return { result: true };
  };

  const answer = async (text: string) => {
    const created: LocalSubscription[] = [];
    const extra: ExtraMethods = new Map([
      ['eth_subscribe', (params: unknown[]) => subscribe(params, created)],
      ['eth_unsubscribe', async (params: unknown[]) => unsubscribe(params)],
    ]);
    let reply: RpcReply;
    try {
      // Paid before it is read, and read only when it nests within the limit.
      const paid = await gateway.prepay(session);
      if (!paid.ok) return send(JSON.stringify(unpaidRefusal(text, paid.failure.error, limits.maxJsonDepth)));
      // The gateway refuses a message nested deeper than the limit without parsing it.
      reply = await gateway.answer(session, text, 'websocket', extra, paid.prepaidComputeUnits);
    } catch (error) {
      logger?.error('WebSocket message failed', {
        network: session.network.id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      ws.close(1011, 'internal error');
      return;
    }
    if (reply.body !== null) send(JSON.stringify(withRequestIds(text, reply.body)));
    for (const subscription of created) announce(subscription);
  };

  // At most maxInFlight messages are answered at once; the rest wait, and the socket is not read meanwhile.
  const start = (text: string) => {
    inFlight++;
    void answer(text).finally(() => {
      inFlight--;
      const next = waiting.shift();
      if (next !== undefined) start(next);
      else if (paused) {
        paused = false;
        ws.resume();
      }
    });
  };

  ws.on('message', (data, isBinary) => {
    answeredPing = true;
    if (isBinary) {
      const { error } = rpcFailure('invalid_request', { problem: 'a binary message; send each JSON-RPC message as a text message' });
      return send(JSON.stringify({ jsonrpc: '2.0', id: null, error }));
    }
    const text = textOf(data);
    if (inFlight < limits.maxInFlight) return start(text);
    waiting.push(text);
    if (!paused) {
      paused = true;
      ws.pause();
    }
  });
  ws.on('pong', () => (answeredPing = true));
  ws.on('error', () => undefined);
  const closed = new Promise<void>((resolve) =>
    ws.once('close', () => {
      waiting.length = 0;
      for (const subscription of [...subscriptions.values()]) cancel(subscription);
      resolve();
    }),
  );

  let charging = false;
  const chargeSubscriptions = async () => {
    if (charging || limits.subscriptionComputeUnits === 0) return;
    charging = true;
    try {
      for (const subscription of [...subscriptions.values()]) {
        if (ws.readyState !== WebSocket.OPEN) return;
        // Still being made, or cancelled meanwhile.
        if (!subscription.leave || subscription.cancelled) continue;
        if (subscription.fresh) {
          subscription.fresh = false;
          continue;
        }
        if ((await gateway.chargeNotifications(session, SUBSCRIPTION_UPKEEP_METHOD, limits.subscriptionComputeUnits, 1)) === 0) {
          const seconds = Math.round(limits.subscriptionChargeIntervalMs / 1000);
          ws.close(
            1013,
            closeReason(`over the rate limit: each open subscription costs ${limits.subscriptionComputeUnits} CU every ${seconds} s; reconnect later`),
          );
          return;
        }
      }
    } catch {
      // The limiter did not answer: this interval is not charged.
    } finally {
      charging = false;
    }
  };

  const recheckKey = async () => {
    if (ws.readyState !== WebSocket.OPEN) return;
    const checked = await gateway.authorize(session.network, credentials.key, credentials.origin).catch(() => null);
    // The key store did not answer: checked again at the next tick.
    if (!checked) return;
    if (checked.ok) session.caller = checked.caller;
    else ws.close(1008, closeReason(checked.failure.error.message));
  };

  return {
    heartbeat() {
      if (ws.readyState !== WebSocket.OPEN) return;
      // A paused connection is not read, so its pong cannot arrive yet.
      if (!answeredPing && !paused) return ws.terminate();
      answeredPing = false;
      ws.ping();
      void recheckKey();
    },
    recheckKey,
    chargeSubscriptions,
    close: (code, reason) => ws.close(code, closeReason(reason)),
    terminate: () => ws.terminate(),
    closed,
  };
}

function textOf(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}

/** A reason that fits a close frame, cut at a character boundary. */
export function closeReason(reason: string): string {
  if (Buffer.byteLength(reason) <= MAX_CLOSE_REASON_BYTES) return reason;
  let cut = reason.slice(0, MAX_CLOSE_REASON_BYTES - 1);
  while (Buffer.byteLength(`${cut}…`) > MAX_CLOSE_REASON_BYTES) cut = cut.slice(0, -1);
  return `${cut}…`;
}
