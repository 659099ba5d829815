import type { Logger } from '../../api/operation.ts';
import { createBlockWindow, type ChainChange, type MinedBlock, type MinedTransaction } from './block-window.ts';
import type { WebSocketLimits } from './limits.ts';
import type { SubscriptionTopic, UpstreamTopic } from './subscription-topic.ts';
import { minedMatcher, pendingMatcher, type MinedFilter, type PendingFilter, type TransactionParties } from './transaction-filters.ts';
import type { FeedJoin, TopicListener, UpstreamFeed } from './upstream-feed.ts';

// What a connection subscribes through (docs/json-rpc.md#subscriptions): the node's own kinds go to the
// network's upstream feed as they are; the transactions kinds (crucible_/alchemy_pendingTransactions,
// …minedTransactions) are derived from it, one upstream subscription per network however many
// filters and subscribers:
// - pending: the upstream's full pending transactions (eth_subscribe newPendingTransactions true,
//   shared with the clients that ask for it); a node that sends hashes anyway has each transaction
//   fetched once, by hash, on the feed's connection;
// - mined: the upstream's newHeads (shared with the clients' newHeads); each new block fetched once
//   with its transactions (eth_getBlockByHash, on the feed's connection, the node that announced
//   it), its reorganisations told apart by the block window.
// Each event is matched once per distinct filter, and each notification's bytes are made once for
// every filter and subscriber that gets them.

export interface SubscriptionFeed {
  /** Adds a listener to a topic; resolves once it is served (the upstream confirmed the subscription it rests on). */
  join(topic: SubscriptionTopic, listener: TopicListener): Promise<FeedJoin>;
  close(): void;
}

export interface TransactionFeedOptions {
  network: string;
  /** Blocks kept to see reorganisations by (the network's finality depth). */
  reorgDepth: number;
  limits: Pick<WebSocketLimits, 'maxPendingFetches'>;
  logger?: Logger;
  /** A transaction sent privately (docs/json-rpc.md#private-transactions): no pending notification names it. */
  isPrivate(hash: string): boolean;
}

const PENDING_KIND = 'newPendingTransactions';

const PENDING_SOURCE: UpstreamTopic = { key: '["newPendingTransactions",true]', params: ['newPendingTransactions', true] };
const HEADS_SOURCE: UpstreamTopic = { key: '["newHeads"]', params: ['newHeads'] };

interface FilterGroup<F> {
  filter: F;
  matches: (tx: TransactionParties) => boolean;
  listeners: Set<TopicListener>;
}

/** The filters subscribed to one derived kind, and the one upstream topic they rest on while any is held. */
function derivedTopics<F>(
  upstream: UpstreamFeed,
  source: UpstreamTopic,
  compile: (filter: F) => FilterGroup<F>['matches'],
  onEvent: TopicListener,
  onIdle: () => void,
) {
  const groups = new Map<string, FilterGroup<F>>();
  let sourceJoin: Promise<FeedJoin> | null = null;

  const remove = (key: string, listener: TopicListener) => {
    const group = groups.get(key);
    group?.listeners.delete(listener);
    if (group?.listeners.size === 0) groups.delete(key);
  };

  return {
    groups: () => groups.values(),
    async join(key: string, filter: F, listener: TopicListener): Promise<FeedJoin> {
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { filter, matches: compile(filter), listeners: new Set() }));
      group.listeners.add(listener);
      const joining = (sourceJoin ??= upstream.join(source, onEvent));
      const joined = await joining;
      if (!joined.ok) {
        remove(key, listener);
        // The next join asks the upstream again.
        if (sourceJoin === joining) sourceJoin = null;
        return joined;
      }
      let left = false;
      return {
        ok: true,
        leave: () => {
          if (left) return;
          left = true;
          remove(key, listener);
          if (groups.size > 0 || sourceJoin !== joining) return;
          sourceJoin = null;
          joined.leave();
          onIdle();
        },
      };
    },
  };
}

/** A node's transaction object, as matching reads it. */
interface NodeTransaction {
  hash?: unknown;
  from?: unknown;
  to?: unknown;
}

function partiesOf(tx: NodeTransaction): TransactionParties | null {
  if (typeof tx.hash !== 'string' || typeof tx.from !== 'string') return null;
  return { from: tx.from.toLowerCase(), to: typeof tx.to === 'string' ? tx.to.toLowerCase() : null };
}

function minedBlockOf(value: unknown): MinedBlock | null {
  const block = value as { hash?: unknown; number?: unknown; parentHash?: unknown; transactions?: unknown } | null;
  if (!block || typeof block.hash !== 'string' || typeof block.number !== 'string' || typeof block.parentHash !== 'string') return null;
  const transactions: MinedTransaction[] = [];
  for (const tx of Array.isArray(block.transactions) ? (block.transactions as NodeTransaction[]) : []) {
    const parties = tx && typeof tx === 'object' ? partiesOf(tx) : null;
    if (parties) transactions.push({ hash: tx.hash as string, ...parties, json: JSON.stringify(tx) });
  }
  return { hash: block.hash, number: Number(block.number), parentHash: block.parentHash, transactions };
}

/** A transaction's hash in a newPendingTransactions event: the event itself, or its `hash`. */
function pendingHashOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  const hash = (value as NodeTransaction | null)?.hash;
  return typeof hash === 'string' ? hash : null;
}

export function createTransactionFeed(upstream: UpstreamFeed, options: TransactionFeedOptions): SubscriptionFeed {
  const { logger } = options;
  const fail = (what: string, error: unknown) =>
    logger?.error(what, { network: options.network, error: error instanceof Error ? error.message : String(error) });

  // Pending: each transaction matched against every filter, in the order the upstream told them.
  const deliverPending = (tx: NodeTransaction, full: Buffer) => {
    const parties = partiesOf(tx);
    if (!parties || options.isPrivate(tx.hash as string)) return;
    let hashOnly: Buffer | undefined;
    for (const group of pending.groups()) {
      if (!group.matches(parties)) continue;
      const result = group.filter.hashesOnly ? (hashOnly ??= Buffer.from(JSON.stringify(tx.hash))) : full;
      for (const listener of group.listeners) listener(result, null);
    }
  };
  /** Fetches by hash not yet delivered: while there are some, later events queue behind them, so the order holds. */
  let fetching = 0;
  let queue: Promise<void> = Promise.resolve();
  const enqueue = (step: () => unknown) => {
    queue = queue.then(step).then(
      () => undefined,
      (error: unknown) => void fail('pending transactions: delivery failed', error),
    );
  };
  const onPending: TopicListener = (result, value) => {
    if (typeof value !== 'string') {
      if (fetching === 0) deliverPending(value as NodeTransaction, result);
      else enqueue(() => deliverPending(value as NodeTransaction, result));
      return;
    }
    if (fetching >= options.limits.maxPendingFetches || options.isPrivate(value)) return;
    fetching++;
    const fetched = upstream.request('eth_getTransactionByHash', [value]);
    enqueue(async () => {
      const answer = await fetched.finally(() => fetching--);
      // Mined or dropped meanwhile, or no answer: not pending any more as far as can be told.
      const tx = answer?.result as NodeTransaction | null | undefined;
      if (tx && typeof tx === 'object') deliverPending(tx, Buffer.from(JSON.stringify(tx)));
    });
  };
  const pending = derivedTopics<PendingFilter>(upstream, PENDING_SOURCE, pendingMatcher, onPending, () => undefined);

  // Mined: the latest head not yet followed; heads that come while one is followed are folded into the next walk.
  const window = createBlockWindow(options.reorgDepth);
  let nextHead: string | null = null;
  let following = false;
  /** Counts the times the feed stopped following heads: a walk begun before the last stop is dropped. */
  let stops = 0;
  const fetchBlock = async (hash: string) => {
    const answer = await upstream.request('eth_getBlockByHash', [hash, true]);
    if (!answer) throw new Error(`no answer to eth_getBlockByHash ${hash}`);
    if (answer.error) throw new Error(`eth_getBlockByHash ${hash}: ${answer.error.message}`);
    return minedBlockOf(answer.result);
  };
  const deliverMined = (change: ChainChange) => {
    const send = (block: MinedBlock, removed: boolean) => {
      for (const tx of block.transactions) {
        let full: Buffer | undefined;
        let hashOnly: Buffer | undefined;
        for (const group of mined.groups()) {
          if ((removed && !group.filter.includeRemoved) || !group.matches(tx)) continue;
          const result = group.filter.hashesOnly
            ? (hashOnly ??= Buffer.from(`{"removed":${removed},"transaction":{"hash":${JSON.stringify(tx.hash)}}}`))
            : (full ??= Buffer.from(`{"removed":${removed},"transaction":${tx.json}}`));
          for (const listener of group.listeners) listener(result, null);
        }
      }
    };
    for (const block of change.removed) send(block, true);
    for (const block of change.added) send(block, false);
  };
  const follow = async () => {
    following = true;
    while (nextHead !== null) {
      const head = nextHead;
      nextHead = null;
      const begun = stops;
      try {
        const change = await window.advance(head, fetchBlock);
        if (begun === stops) deliverMined(change);
        else window.clear();
      } catch (error) {
        // Its transactions come with the next head, whose walk back reaches this block again.
        fail('mined transactions: a new block could not be read', error);
      }
    }
    following = false;
  };
  const onHead: TopicListener = (_result, value) => {
    const hash = (value as { hash?: unknown } | null)?.hash;
    if (typeof hash !== 'string') return;
    nextHead = hash;
    if (!following) void follow();
  };
  // Without subscribers no head is followed: what the window holds would be stale when the next one comes.
  const mined = derivedTopics<MinedFilter>(upstream, HEADS_SOURCE, minedMatcher, onHead, () => {
    stops++;
    nextHead = null;
    window.clear();
  });

  /** The node's own pending kind, private transactions left out. */
  const withoutPrivate =
    (listener: TopicListener): TopicListener =>
    (result, value) => {
      const hash = pendingHashOf(value);
      if (hash === null || !options.isPrivate(hash)) listener(result, value);
    };

  return {
    join(topic, listener) {
      if (topic.source === 'pending') return pending.join(topic.key, topic.filter, listener);
      if (topic.source === 'mined') return mined.join(topic.key, topic.filter, listener);
      return upstream.join(topic, topic.params[0] === PENDING_KIND ? withoutPrivate(listener) : listener);
    },
    close: () => upstream.close(),
  };
}
