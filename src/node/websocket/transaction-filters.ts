// The filters of the transactions subscriptions (crucible_/alchemy_pendingTransactions and
// …minedTransactions, docs/json-rpc.md#subscriptions), in one normal form (addresses lowercase,
// sorted, without repeats; defaults filled in), so that the same filter spelled differently is one
// topic; and what a transaction must be to match one. Addresses compare case-insensitively.

/** A pending transaction matches when it is from any of `fromAddress` or to any of `toAddress`; both empty: every one. */
export interface PendingFilter {
  fromAddress: string[];
  toAddress: string[];
  hashesOnly: boolean;
}

/** One entry of a mined filter: a transaction matches it when it has each address the entry gives. */
interface FromTo {
  from?: string;
  to?: string;
}

/** A mined transaction matches when it matches any entry; no entries: every one. */
export interface MinedFilter {
  addresses: FromTo[];
  includeRemoved: boolean;
  hashesOnly: boolean;
}

/** What matching reads of a transaction: its sender and recipient, lowercase (`to` is null for a contract creation). */
export interface TransactionParties {
  from: string;
  to: string | null;
}

type Addresses = string | readonly string[] | null | undefined;

/** The normal form of validated alchemy_pendingTransactions options. */
export function pendingFilterOf(options: { fromAddress?: Addresses; toAddress?: Addresses; hashesOnly?: boolean | null } | undefined): PendingFilter {
  return { fromAddress: addressSet(options?.fromAddress), toAddress: addressSet(options?.toAddress), hashesOnly: options?.hashesOnly === true };
}

/** The normal form of validated alchemy_minedTransactions options. */
export function minedFilterOf(
  options:
    | { addresses?: ReadonlyArray<{ from?: string | null; to?: string | null }> | null; includeRemoved?: boolean | null; hashesOnly?: boolean | null }
    | undefined,
): MinedFilter {
  const entries = new Map<string, FromTo>();
  for (const { from, to } of options?.addresses ?? []) {
    const entry: FromTo = {};
    if (from) entry.from = from.toLowerCase();
    if (to) entry.to = to.toLowerCase();
    entries.set(`${entry.from ?? ''}>${entry.to ?? ''}`, entry);
  }
  const addresses = [...entries.keys()].sort().map((key) => entries.get(key)!);
  return { addresses, includeRemoved: options?.includeRemoved === true, hashesOnly: options?.hashesOnly === true };
}

/** Whether a pending transaction matches: one Set lookup per list. */
export function pendingMatcher(filter: PendingFilter): (tx: TransactionParties) => boolean {
  if (filter.fromAddress.length === 0 && filter.toAddress.length === 0) return () => true;
  const from = new Set(filter.fromAddress);
  const to = new Set(filter.toAddress);
  return (tx) => from.has(tx.from) || (tx.to !== null && to.has(tx.to));
}

/** Whether a mined transaction matches: entries are grouped by what they name, one Set lookup per group. */
export function minedMatcher(filter: MinedFilter): (tx: TransactionParties) => boolean {
  if (filter.addresses.length === 0) return () => true;
  const fromOnly = new Set<string>();
  const toOnly = new Set<string>();
  const pairs = new Set<string>();
  for (const { from, to } of filter.addresses) {
    if (from && to) pairs.add(`${from}>${to}`);
    else if (from) fromOnly.add(from);
    else if (to) toOnly.add(to);
  }
  return (tx) => fromOnly.has(tx.from) || (tx.to !== null && (toOnly.has(tx.to) || pairs.has(`${tx.from}>${tx.to}`)));
}

function addressSet(addresses: Addresses): string[] {
  if (addresses === undefined || addresses === null) return [];
  return [...new Set([addresses].flat().map((address) => address.toLowerCase()))].sort();
}
