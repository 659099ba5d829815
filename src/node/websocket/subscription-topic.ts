import { minedFilterOf, pendingFilterOf, type MinedFilter, type PendingFilter } from './transaction-filters.ts';

// What one subscription topic serves (docs/json-rpc.md#subscriptions, fan-out): the kind and its filter in one normal
// form, so that callers asking for the same notifications in different spellings (address case,
// one address or a list of one, trailing null topics, the alchemy_ or crucible_ name) share one
// topic. The node's own kinds are one upstream subscription each; every rewrite keeps the meaning
// geth and anvil give the filter. The transactions kinds are derived from the network's upstream
// feed (transaction-feed.ts): one topic per distinct filter.

/** One upstream eth_subscribe. */
export interface UpstreamTopic {
  /** Equal for two eth_subscribe calls whose notifications are the same. */
  key: string;
  /** The eth_subscribe params sent upstream. */
  params: unknown[];
}

export type SubscriptionTopic =
  | ({ source: 'upstream' } & UpstreamTopic)
  | { source: 'pending'; key: string; filter: PendingFilter }
  | { source: 'mined'; key: string; filter: MinedFilter };

/** The kinds' vendor names (crucible_…); the alchemy_ names are the same kinds. */
const PENDING_TRANSACTIONS = 'crucible_pendingTransactions';
const MINED_TRANSACTIONS = 'crucible_minedTransactions';

type TopicPosition = string | string[] | null;

/** The topic of eth_subscribe params the registry has validated (`[kind]` or `[kind, options]`). */
export function subscriptionTopicOf(params: readonly unknown[]): SubscriptionTopic {
  const [kind, options] = params;
  if (kind === PENDING_TRANSACTIONS || kind === 'alchemy_pendingTransactions') {
    const filter = pendingFilterOf(options as Parameters<typeof pendingFilterOf>[0]);
    return { source: 'pending', key: JSON.stringify([PENDING_TRANSACTIONS, filter]), filter };
  }
  if (kind === MINED_TRANSACTIONS || kind === 'alchemy_minedTransactions') {
    const filter = minedFilterOf(options as Parameters<typeof minedFilterOf>[0]);
    return { source: 'mined', key: JSON.stringify([MINED_TRANSACTIONS, filter]), filter };
  }
  const upstream = paramsOf(kind, options);
  return { source: 'upstream', key: JSON.stringify(upstream), params: upstream };
}

/** The kinds are the registry's (src/node/rpc/methods/subscriptions.ts), which has refused any other. */
function paramsOf(kind: unknown, options: unknown): unknown[] {
  switch (kind) {
    case 'newHeads':
      return ['newHeads'];
    // `false` (hashes only) is what the kind sends without options.
    case 'newPendingTransactions':
      return options === true ? ['newPendingTransactions', true] : ['newPendingTransactions'];
    // Sent with a filter object even when empty: geth requires one.
    case 'logs':
      return ['logs', logsFilterOf(options as { address?: string | string[]; topics?: TopicPosition[] } | undefined)];
    default:
      throw new Error(`eth_subscribe params were not validated: unknown kind ${JSON.stringify(kind)}`);
  }
}

/** Only address and topics: a subscription has no block range, so other fields mean nothing to it. */
function logsFilterOf(filter: { address?: string | string[]; topics?: TopicPosition[] } | undefined): { address?: string[]; topics?: TopicPosition[] } {
  const normal: { address?: string[]; topics?: TopicPosition[] } = {};
  // An empty address list matches every address, like no list.
  const addresses = filter?.address === undefined ? [] : sortedSet([filter.address].flat());
  if (addresses.length > 0) normal.address = addresses;
  const topics = (filter?.topics ?? []).map(topicPositionOf);
  // A trailing null position matches anything, like a shorter list.
  while (topics.length > 0 && topics.at(-1) === null) topics.pop();
  if (topics.length > 0) normal.topics = topics;
  return normal;
}

/** null, one topic, or an OR-list of two or more; a list holding null (or nothing) matches anything. */
function topicPositionOf(position: TopicPosition): TopicPosition {
  if (position === null) return null;
  if (typeof position === 'string') return position.toLowerCase();
  if (position.length === 0 || position.includes(null as never)) return null;
  const topics = sortedSet(position);
  return topics.length === 1 ? topics[0]! : topics;
}

function sortedSet(values: readonly string[]): string[] {
  return [...new Set(values.map((value) => value.toLowerCase()))].sort();
}
