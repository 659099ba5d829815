import { getAddress, pad, type Address, type Hex } from 'viem';
import { CrucibleError } from '../errors/crucible-error.ts';
import type { WalletTransaction } from '../transfers/wallet-reads.ts';
import { decodePortfolioKey, encodePortfolioKey } from './page-key.ts';
import {
  PAGE_SIZES,
  type NftCollectionsAnswer,
  type NftsAnswer,
  type NftsBody,
  type TokenBalancesAnswer,
  type TokenBalancesBody,
  type TokensAnswer,
  type TokensBody,
  type TransactionBody,
  type TransactionsAnswer,
  type TransactionsBody,
} from './schemas.ts';
import type { PortfolioApi, PortfolioNetwork, TransactionDetails } from './sources.ts';

// The portfolio endpoints' answers (docs/portfolio.md): a request names wallets, each with networks;
// every (wallet, network) pair is read in the order asked, and a page runs across them, its key
// saying which pair it stopped in and where (./page-key.ts). Names and keys are checked before
// anything is read; a refusal is a thrown CrucibleError.

/** One wallet on one network, as asked and as read. */
interface Pair {
  /** The wallet and the network as the request gave them: answers repeat them. */
  address: string;
  network: string;
  owner: Address;
  reads: PortfolioNetwork;
}

const badRequest = (message: string) => new CrucibleError('bad_request', message);
const badKey = (name: string) =>
  badRequest(`${name} is not one this endpoint gave for these addresses and networks; pass it back as it was given, with the same addresses.`);

/** The pairs a request names, refused (400) when a network is unknown, serves no portfolio, or is named twice for a wallet. */
function pairsOf(api: PortfolioApi, addresses: ReadonlyArray<{ address: string; networks: readonly string[] }>): Pair[] {
  return addresses.flatMap(({ address, networks }, i) => {
    const seen = new Map<string, string>();
    return networks.map((network, j) => {
      const field = `addresses.${i}.networks.${j}`;
      const id = api.networkIdOf(network);
      if (id === null)
        throw badRequest(`${field}: there is no network ${network}: name a network id (ethereum-sepolia) or the incumbent's name of its chain (eth-sepolia).`);
      const reads = api.network(id);
      if (!reads) throw badRequest(`${field}: network ${network} has no portfolio data, as it does not speak the EVM's JSON-RPC.`);
      const twice = seen.get(id);
      if (twice !== undefined) throw badRequest(`${field}: ${network} and ${twice} name the same network for ${address}; name it once.`);
      seen.set(id, network);
      return { address, network, owner: getAddress(address), reads };
    });
  });
}

function startOf<K extends 'tokens' | 'nfts'>(kind: K, pageKey: string | undefined, pairs: number) {
  if (pageKey === undefined) return { pair: 0, inner: null };
  const start = decodePortfolioKey(kind, pageKey, pairs);
  if (!start) throw badKey('pageKey');
  return start;
}

interface HeldToken {
  pair: Pair;
  contract: Address | null;
  balance: Hex;
}

/** A page of balances across the pairs: each pair's coin first (includeNativeTokens), then its ERC-20 tokens. */
async function tokenPage(pairs: readonly Pair[], pageKey: string | undefined, includeNative: boolean): Promise<{ held: HeldToken[]; pageKey: string | null }> {
  const start = startOf('tokens', pageKey, pairs.length);
  const held: HeldToken[] = [];
  for (let p = start.pair; p < pairs.length; p++) {
    const pair = pairs[p]!;
    let inner = p === start.pair ? start.inner : null;
    if (inner === null) {
      if (includeNative) held.push({ pair, contract: null, balance: await pair.reads.nativeBalance(pair.owner) });
      inner = '';
    }
    if (held.length === PAGE_SIZES.tokens) return { held, pageKey: encodePortfolioKey('tokens', p, inner) };
    const page = await pair.reads.tokenBalances(pair.owner, { pageKey: inner || null, limit: PAGE_SIZES.tokens - held.length });
    held.push(...page.balances.map(({ contract, balance }) => ({ pair, contract, balance })));
    if (page.pageKey !== null) return { held, pageKey: encodePortfolioKey('tokens', p, page.pageKey) };
    if (held.length === PAGE_SIZES.tokens && p + 1 < pairs.length) return { held, pageKey: encodePortfolioKey('tokens', p + 1, null) };
  }
  return { held, pageKey: null };
}

const tokenOf = ({ pair, contract, balance }: HeldToken) => ({
  network: pair.network,
  address: pair.address,
  tokenAddress: contract === null ? null : contract.toLowerCase(),
  tokenBalance: balance,
});

/** Reads items grouped by a key, one read per group at once, the answers back in the items' order. */
async function readGrouped<I, K, T>(items: readonly I[], keyOf: (item: I) => K, read: (key: K, items: I[]) => Promise<T[]>): Promise<T[]> {
  const groups = new Map<K, number[]>();
  for (const [i, item] of items.entries()) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), i]);
  const answers = new Array<T>(items.length);
  await Promise.all(
    [...groups].map(async ([key, places]) => {
      const read_ = await read(
        key,
        places.map((i) => items[i]!),
      );
      for (const [k, i] of places.entries()) answers[i] = read_[k]!;
    }),
  );
  return answers;
}

/** What a read of each pair's tokens gives, in the page's order: one call per pair. */
const perPair = <T>(held: readonly HeldToken[], read: (reads: PortfolioNetwork, contracts: Array<Address | null>) => Promise<T[]>) =>
  readGrouped(
    held,
    (token) => token.pair,
    (pair, tokens) =>
      read(
        pair.reads,
        tokens.map((token) => token.contract),
      ),
  );

export async function tokensByWallet(api: PortfolioApi, body: TokensBody): Promise<TokensAnswer> {
  const pairs = pairsOf(api, body.addresses);
  const { held, pageKey } = await tokenPage(pairs, body.pageKey, body.includeNativeTokens);
  const [metadata, prices] = await Promise.all([
    body.withMetadata ? perPair(held, (reads, contracts) => reads.tokenMetadata(contracts)) : null,
    body.withPrices ? perPair(held, (reads, contracts) => reads.tokenPrices(contracts)) : null,
  ]);
  const tokens = held.map((token, i) => ({
    ...tokenOf(token),
    ...(metadata ? { tokenMetadata: metadata[i]! } : {}),
    tokenPrices: prices ? prices[i]! : [],
    error: null,
  }));
  return { data: { tokens, pageKey } };
}

export async function tokenBalancesByWallet(api: PortfolioApi, body: TokenBalancesBody): Promise<TokenBalancesAnswer> {
  const pairs = pairsOf(api, body.addresses);
  const { held, pageKey } = await tokenPage(pairs, body.pageKey, body.includeNativeTokens);
  return { data: { tokens: held.map(tokenOf), pageKey } };
}

export async function nftsByWallet(api: PortfolioApi, body: NftsBody): Promise<NftsAnswer> {
  const pairs = pairsOf(api, body.addresses);
  const start = startOf('nfts', body.pageKey, pairs.length);
  if (start.inner !== null && !pairs[start.pair]!.reads.isNftPageKey(pairs[start.pair]!.owner, start.inner)) throw badKey('pageKey');
  const ownedNfts: NftsAnswer['data']['ownedNfts'] = [];
  const counts = new Map<number, number>();
  let pageKey: string | null = null;
  for (let p = start.pair; p < pairs.length; p++) {
    const pair = pairs[p]!;
    const page = await pair.reads.nfts(pair.owner, {
      withMetadata: body.withMetadata,
      pageKey: p === start.pair ? start.inner : null,
      pageSize: body.pageSize - ownedNfts.length,
    });
    counts.set(p, page.totalCount);
    for (const nft of page.ownedNfts) ownedNfts.push({ ...(nft as NftsAnswer['data']['ownedNfts'][number]), network: pair.network, address: pair.address });
    if (page.pageKey !== null) {
      pageKey = encodePortfolioKey('nfts', p, page.pageKey);
      break;
    }
    if (ownedNfts.length === body.pageSize && p + 1 < pairs.length) {
      pageKey = encodePortfolioKey('nfts', p + 1, null);
      break;
    }
  }
  // The pairs the page did not read are counted too: totalCount is over every pair asked.
  const uncounted = pairs.map((pair, p) => ({ pair, p })).filter(({ p }) => !counts.has(p));
  const more = await Promise.all(uncounted.map(({ pair }) => pair.reads.nfts(pair.owner, { withMetadata: false, pageKey: null, pageSize: 1 })));
  const totalCount = [...counts.values(), ...more.map((page) => page.totalCount)].reduce((sum, count) => sum + count, 0);
  return { data: { ownedNfts, totalCount, pageKey } };
}

export async function nftCollectionsByWallet(api: PortfolioApi, body: NftsBody): Promise<NftCollectionsAnswer> {
  const pairs = pairsOf(api, body.addresses);
  let start: { pair: number; inner: string | null } = { pair: 0, inner: null };
  if (body.pageKey !== undefined) {
    const decoded = decodePortfolioKey('collections', body.pageKey, pairs.length);
    if (!decoded) throw badKey('pageKey');
    start = decoded;
  }
  const contracts: NftCollectionsAnswer['data']['contracts'] = [];
  const counts = new Map<number, number>();
  let pageKey: string | null = null;
  for (let p = start.pair; p < pairs.length; p++) {
    const pair = pairs[p]!;
    const limit = body.pageSize - contracts.length;
    // One more than the page holds says whether the pair has more.
    const page = await pair.reads.nftContracts(pair.owner, {
      withMetadata: body.withMetadata,
      after: p === start.pair && start.inner !== null ? getAddress(start.inner) : null,
      limit: limit + 1,
    });
    counts.set(p, page.totalCount);
    const taken = page.contracts.slice(0, limit);
    for (const contract of taken)
      contracts.push({ network: pair.network, address: pair.address, contract: contract as NftCollectionsAnswer['data']['contracts'][number]['contract'] });
    if (page.contracts.length > limit) {
      pageKey = encodePortfolioKey('collections', p, taken.at(-1)!.address.toLowerCase());
      break;
    }
    if (contracts.length === body.pageSize && p + 1 < pairs.length) {
      // The next pair from its first contract: a key "after" the zero address.
      pageKey = encodePortfolioKey('collections', p + 1, `0x${'0'.repeat(40)}`);
      break;
    }
  }
  const uncounted = pairs.map((pair, p) => ({ pair, p })).filter(({ p }) => !counts.has(p));
  const more = await Promise.all(uncounted.map(({ pair }) => pair.reads.nftContracts(pair.owner, { withMetadata: false, after: null, limit: 1 })));
  const totalCount = [...counts.values(), ...more.map((page) => page.totalCount)].reduce((sum, count) => sum + count, 0);
  return { data: { contracts, totalCount, pageKey } };
}

interface Listed {
  p: number;
  row: WalletTransaction;
}

const historyKey = ({ p, row }: Listed) => encodePortfolioKey('history', p, [row.block, row.transactionIndex]);

export async function transactionsByWallet(api: PortfolioApi, body: TransactionsBody): Promise<TransactionsAnswer> {
  const pairs = pairsOf(api, body.addresses);
  const cursorName = body.before !== undefined ? 'before' : 'after';
  const cursorText = body.before ?? body.after;
  const cursor = cursorText === undefined ? null : decodePortfolioKey('history', cursorText, pairs.length);
  if (cursorText !== undefined && !cursor) throw badKey(cursorName);
  // `after`: older transactions, pair after pair; `before`: newer ones, back through the pairs, then turned around.
  const older = cursorName === 'after';
  const listed: Listed[] = [];
  const wanted = body.limit + 1;
  for (let p = cursor?.pair ?? 0; p >= 0 && p < pairs.length && listed.length < wanted; p += older ? 1 : -1) {
    const pair = pairs[p]!;
    const from = cursor && p === cursor.pair ? { block: cursor.inner[0], transactionIndex: cursor.inner[1] } : null;
    const rows = await pair.reads.transactions(pair.owner, { from, direction: older ? 'older' : 'newer', limit: wanted - listed.length });
    listed.push(...rows.map((row) => ({ p, row })));
  }
  const more = listed.length > body.limit;
  const page = listed.slice(0, body.limit);
  if (!older) page.reverse();
  const [details, counts] = await Promise.all([detailsOf(pairs, page), Promise.all(pairs.map((pair) => pair.reads.transactionCount(pair.owner)))]);
  const answer: TransactionsAnswer = {
    totalCount: counts.reduce((sum, count) => sum + count, 0),
    transactions: page.map((entry, i) => transactionBody(pairs[entry.p]!, entry.row, details[i]!)),
  };
  const first = page[0];
  const last = page.at(-1);
  // Newer transactions come before the page when it was reached from one, or when more were found going back.
  if (first && (older ? cursor !== null : more)) answer.before = historyKey(first);
  if (last && (older ? more : true)) answer.after = historyKey(last);
  return answer;
}

/** Each listed transaction's details, read per pair. */
const detailsOf = (pairs: readonly Pair[], page: readonly Listed[]) =>
  readGrouped(
    page,
    (entry) => entry.p,
    (p, entries) => pairs[p]!.reads.transactionDetails(entries.map((entry) => entry.row)),
  );

const decimal = (quantity: unknown) => (typeof quantity === 'string' && quantity.startsWith('0x') ? BigInt(quantity).toString() : '0');
const int = (quantity: unknown) => (typeof quantity === 'string' && quantity.startsWith('0x') ? Number(BigInt(quantity)) : 0);
const addressOrNull = (value: unknown) => (typeof value === 'string' ? getAddress(value) : null);

/** One transaction as the portfolio lists it: the receipt's fields under both the SDK's names and the incumbent's. */
function transactionBody(
  pair: Pair,
  row: WalletTransaction,
  { transaction, receipt, internal }: TransactionDetails & { internal: Array<{ from: Address; to: Address; amount: string }> },
): TransactionBody {
  // The wallet's logs: those naming it in a topic (a transfer's from or to).
  const topic = pad(pair.owner.toLowerCase() as Hex);
  const logs = receipt.logs
    .filter((log) => (log.topics as string[]).slice(1).some((entry) => entry.toLowerCase() === topic))
    .map((log) => ({
      address: getAddress(log.address as string),
      contractAddress: getAddress(log.address as string),
      topics: log.topics as string[],
      data: log.data as string,
      logIndex: int(log.logIndex),
      blockNumber: row.block,
      blockHash: receipt.blockHash as string,
      transactionHash: row.hash,
      transactionIndex: row.transactionIndex,
      removed: false,
    }));
  const from = getAddress(receipt.from as string);
  const to = addressOrNull(receipt.to);
  return {
    network: pair.network,
    address: pair.address,
    hash: row.hash,
    transactionHash: row.hash,
    timeStamp: row.blockTimestamp === null ? null : new Date(row.blockTimestamp * 1000).toISOString(),
    blockNumber: row.block,
    blockHash: receipt.blockHash as string,
    transactionIndex: row.transactionIndex,
    nonce: int(transaction.nonce),
    from,
    to,
    fromAddress: from,
    toAddress: to,
    contractAddress: addressOrNull(receipt.contractAddress),
    value: decimal(transaction.value),
    gasUsed: decimal(receipt.gasUsed),
    cumulativeGasUsed: decimal(receipt.cumulativeGasUsed),
    effectiveGasPrice: decimal(receipt.effectiveGasPrice ?? transaction.gasPrice),
    status: int(receipt.status),
    type: int(receipt.type ?? transaction.type),
    logsBloom: (receipt.logsBloom as string | undefined) ?? '0x',
    logs,
    internalTxns: internal.map((move) => ({ fromAddress: move.from, toAddress: move.to, value: move.amount })),
  };
}
