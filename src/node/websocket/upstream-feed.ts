import WebSocket from 'ws';
import type { Logger } from '../../api/operation.ts';
import type { RpcErrorObject } from '../../errors/json-rpc.ts';
import { reconnectDelay, type WebSocketLimits } from './limits.ts';
import type { UpstreamTopic } from './subscription-topic.ts';

// One network's subscriptions upstream (docs/json-rpc.md#subscriptions, fan-out): ONE WebSocket connection to an
// upstream, and on it one eth_subscribe per topic, made when the topic's first listener joins and
// cancelled when its last one leaves. Each event is serialized once and handed to every listener.
// When the connection drops, it reconnects with backoff (to the next URL) and subscribes every
// live topic again: listeners keep listening and never see the upstream's ids.

/**
 * Receives each event of a topic: the notification's `result` as UTF-8 JSON, shared by every
 * listener, and parsed (both read only).
 */
export type TopicListener = (result: Buffer, value: unknown) => void;

export type FeedJoin =
  | { ok: true; leave(): void }
  /** The upstream refused the subscription (its own error, e.g. an unsupported kind). */
  | { ok: false; nodeError: RpcErrorObject }
  /** No upstream answered in time. */
  | { ok: false; unavailable: true };

type FeedFailure = Exclude<FeedJoin, { ok: true }>;

export interface UpstreamFeed {
  /** Adds a listener to a topic; resolves once the upstream serves the topic (at once when it already does). */
  join(topic: UpstreamTopic, listener: TopicListener): Promise<FeedJoin>;
  /**
   * One call on the open upstream connection, the node whose events the feed relays (so it knows
   * the block or transaction an event named): its answer, or undefined when no connection is open,
   * it closed first, or no answer came in time.
   */
  request(method: string, params: unknown[]): Promise<UpstreamAnswer | undefined>;
  close(): void;
}

export interface UpstreamFeedOptions {
  /** The network's upstream WebSocket URLs, healthy first. */
  urls(): Promise<string[]>;
  network: string;
  limits: Pick<WebSocketLimits, 'pingIntervalMs' | 'upstreamAnswerTimeoutMs' | 'reconnectDelayMs' | 'upstreamIdleMs'>;
  logger?: Logger;
}

interface TopicState {
  topic: UpstreamTopic;
  listeners: Set<TopicListener>;
  /** The upstream's id on the current connection; null while (re)subscribing. */
  upstreamId: string | null;
  /** Settles once: with null when the upstream first serves the topic, else why it does not. */
  confirmed: Promise<FeedFailure | null>;
  settle(failure: FeedFailure | null): void;
  settled: boolean;
}

interface UpstreamAnswer {
  id?: unknown;
  result?: unknown;
  error?: RpcErrorObject;
}

const unavailable: FeedFailure = { ok: false, unavailable: true };

export function createUpstreamFeed(options: UpstreamFeedOptions): UpstreamFeed {
  const { limits, logger } = options;
  const topics = new Map<string, TopicState>();
  const byUpstreamId = new Map<string, TopicState>();
  /** Requests on the current connection by id; resolved with undefined when it closes. */
  const pending = new Map<number, (answer: UpstreamAnswer | undefined) => void>();
  let socket: WebSocket | null = null;
  let connecting = false;
  let attempt = 0;
  let urlIndex = 0;
  let nextRequestId = 1;
  let answeredPing = true;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let closed = false;

  const pingTimer = setInterval(() => {
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    // An upstream that stopped answering is treated as dropped: reconnect elsewhere.
    if (!answeredPing) return socket.terminate();
    answeredPing = false;
    socket.ping();
  }, limits.pingIntervalMs).unref();

  /** Resolves with the answer, or with undefined when the connection closes first or `timeoutMs` passes. */
  const request = (ws: WebSocket, method: string, params: unknown[], timeoutMs?: number): Promise<UpstreamAnswer | undefined> => {
    const id = nextRequestId++;
    return new Promise((resolve) => {
      const timer = timeoutMs === undefined ? undefined : setTimeout(() => answered(undefined), timeoutMs);
      const answered = (answer: UpstreamAnswer | undefined) => {
        clearTimeout(timer);
        pending.delete(id);
        resolve(answer);
      };
      pending.set(id, answered);
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  };

  const settle = (state: TopicState, failure: FeedFailure | null) => {
    if (state.settled) return;
    state.settled = true;
    state.settle(failure);
    if (failure && topics.get(state.topic.key) === state) forget(state);
  };

  const forget = (state: TopicState) => {
    topics.delete(state.topic.key);
    if (state.upstreamId !== null) byUpstreamId.delete(state.upstreamId);
    if (topics.size === 0) idleLater();
  };

  const subscribe = (ws: WebSocket, state: TopicState) => {
    void request(ws, 'eth_subscribe', state.topic.params).then((answer) => {
      // The connection closed first: the next one subscribes again.
      if (!answer) return;
      if (answer.error || typeof answer.result !== 'string') {
        const error = answer.error ?? { code: -32603, message: 'the upstream answered eth_subscribe without an id' };
        if (!state.settled) return settle(state, { ok: false, nodeError: error });
        // An upstream that refuses a topic another one served: its listeners wait for the next connection.
        logger?.error('upstream refused a subscription it served before', { network: options.network, topic: state.topic.key, error: error.message });
        return;
      }
      attempt = 0;
      if (topics.get(state.topic.key) !== state) {
        // Every listener left while the upstream was answering.
        void request(ws, 'eth_unsubscribe', [answer.result]);
        return;
      }
      state.upstreamId = answer.result;
      byUpstreamId.set(answer.result, state);
      settle(state, null);
    });
  };

  const onMessage = (text: string) => {
    let message: { id?: unknown; method?: unknown; params?: { subscription?: unknown; result?: unknown } } & UpstreamAnswer;
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (message === null || typeof message !== 'object') return;
    if (message.method === 'eth_subscription') {
      const state = byUpstreamId.get(String(message.params?.subscription));
      if (!state) return;
      const value = message.params?.result ?? null;
      const result = Buffer.from(JSON.stringify(value));
      for (const listener of state.listeners) listener(result, value);
      return;
    }
    if (typeof message.id === 'number') {
      pending.get(message.id)?.(message);
      pending.delete(message.id);
    }
  };

  const connect = async () => {
    if (socket || connecting || closed || reconnectTimer) return;
    connecting = true;
    const urls = await options.urls().catch(() => [] as string[]);
    connecting = false;
    if (closed || topics.size === 0) return;
    const url = urls[urlIndex % Math.max(urls.length, 1)];
    if (!url) return reconnectLater();
    const ws = new WebSocket(url, { handshakeTimeout: limits.upstreamAnswerTimeoutMs });
    socket = ws;
    answeredPing = true;
    ws.on('open', () => {
      for (const state of topics.values()) subscribe(ws, state);
    });
    ws.on('message', (data) => onMessage(String(data)));
    ws.on('pong', () => (answeredPing = true));
    // 'close' follows every error.
    ws.on('error', () => undefined);
    ws.on('close', () => {
      if (socket !== ws) return;
      socket = null;
      for (const resolve of pending.values()) resolve(undefined);
      pending.clear();
      byUpstreamId.clear();
      for (const state of topics.values()) state.upstreamId = null;
      if (topics.size > 0 && !closed) {
        logger?.error('upstream WebSocket closed; reconnecting', { network: options.network, url: ws.url, topics: topics.size });
        urlIndex++;
        reconnectLater();
      }
    });
  };

  const reconnectLater = () => {
    if (closed || reconnectTimer) return;
    reconnectTimer = setTimeout(
      () => {
        reconnectTimer = undefined;
        void connect();
      },
      reconnectDelay(attempt++, limits.reconnectDelayMs),
    );
  };

  const idleLater = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      if (topics.size > 0 || !socket) return;
      const idle = socket;
      socket = null;
      idle.close();
    }, limits.upstreamIdleMs).unref();
  };

  const leave = (state: TopicState, listener: TopicListener) => {
    state.listeners.delete(listener);
    if (state.listeners.size > 0 || topics.get(state.topic.key) !== state) return;
    if (state.upstreamId !== null && socket?.readyState === WebSocket.OPEN) void request(socket, 'eth_unsubscribe', [state.upstreamId]);
    forget(state);
  };

  const topicState = (topic: UpstreamTopic): TopicState => {
    let settleWith!: (failure: FeedFailure | null) => void;
    const confirmed = new Promise<FeedFailure | null>((resolve) => (settleWith = resolve));
    const state: TopicState = { topic, listeners: new Set(), upstreamId: null, confirmed, settle: settleWith, settled: false };
    const timeout = setTimeout(() => settle(state, unavailable), limits.upstreamAnswerTimeoutMs);
    void confirmed.then(() => clearTimeout(timeout));
    return state;
  };

  return {
    async join(topic, listener) {
      if (closed) return unavailable;
      let state = topics.get(topic.key);
      if (!state) {
        state = topicState(topic);
        topics.set(topic.key, state);
        clearTimeout(idleTimer);
        if (socket?.readyState === WebSocket.OPEN) subscribe(socket, state);
        else void connect();
      }
      state.listeners.add(listener);
      const failure = await state.confirmed;
      if (failure) {
        state.listeners.delete(listener);
        return failure;
      }
      const joined = state;
      return { ok: true, leave: () => leave(joined, listener) };
    },
    async request(method, params) {
      if (closed || !socket || socket.readyState !== WebSocket.OPEN) return undefined;
      return request(socket, method, params, limits.upstreamAnswerTimeoutMs);
    },
    close() {
      closed = true;
      clearInterval(pingTimer);
      clearTimeout(reconnectTimer);
      clearTimeout(idleTimer);
      const waiting = [...topics.values()];
      topics.clear();
      byUpstreamId.clear();
      for (const state of waiting) settle(state, unavailable);
      const open = socket;
      socket = null;
      open?.terminate();
    },
  };
}
