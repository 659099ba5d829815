import { formatUnits, numberToHex, pad, type Address } from 'viem';
import type { ContractReader } from '../chain/contract-reader.ts';
import { encodeTransfersPageKey } from '../node/rpc/methods/transfers-page-key.ts';
import { parseAssetTransfersParams, type AssetTransferCategory } from '../node/rpc/methods/transfer-params.ts';
import { TokenParamsError } from '../node/rpc/methods/token-params.ts';
import type { TokenLogos } from '../token-list/token-list.ts';
import type { IndexedAssetTransfer } from '../transfers/asset-transfers.ts';
import type { TransferKind } from '../transfers/transfer.ts';
import type { TokenMetadata, TokenMetadataReader } from './metadata.ts';
import type { TokenIndex } from './token-index.ts';

// crucible_getAssetTransfers (docs/token-data.md#crucible_getassettransfers): a page of the transfer index's transfers in the
// incumbent's shape, which its SDK returns to callers unchanged. Amounts are converted with the
// token's decimals (the native coin's from the network), assets named by their symbols; both come
// from the token metadata cache, so a page reads each contract's metadata at most once per cache
// lifetime, and a contract whose metadata cannot be read gives null asset, decimal and value.

export interface AssetTransfersNetwork {
  network: string;
  /** The network's coin: what external and internal transfers move. */
  nativeCurrency: { symbol: string; decimals: number };
  chain: ContractReader;
  index: TokenIndex;
  metadata: TokenMetadataReader;
  logos: TokenLogos;
}

type Category = AssetTransferCategory;

/** One transfer of the answer (the incumbent's AssetTransfersResult). */
interface AssetTransfer {
  blockNum: string;
  uniqueId: string;
  hash: string;
  from: string;
  to: string | null;
  value: number | null;
  erc721TokenId: string | null;
  erc1155Metadata: Array<{ tokenId: string; value: string }> | null;
  tokenId: string | null;
  asset: string | null;
  category: Category;
  rawContract: { value: string | null; address: string | null; decimal: string | null };
  metadata?: { blockTimestamp: string | null };
}

export interface AssetTransfersAnswer {
  transfers: AssetTransfer[];
  /** Present when more transfers follow: pass it back to read them. */
  pageKey?: string;
}

const TOKEN_CATEGORY: Record<TransferKind, Category> = { erc20: 'erc20', erc721: 'erc721', erc1155: 'erc1155', legacy: 'specialnft' };
const TOKEN_KIND: Partial<Record<Category, TransferKind>> = { erc20: 'erc20', erc721: 'erc721', erc1155: 'erc1155', specialnft: 'legacy' };

/** A token id or amount as the incumbent writes ids: a 32-byte word. */
const word = (decimal: string) => pad(numberToHex(BigInt(decimal)), { size: 32 });
const hexOf = (decimal: string) => numberToHex(BigInt(decimal));

export async function getAssetTransfers(data: AssetTransfersNetwork, params: readonly unknown[]): Promise<AssetTransfersAnswer> {
  const query = parseAssetTransfersParams(params);
  const coverage = await data.index.coverage();
  if (query.categories.has('internal') && coverage.internalTransfers === 'unavailable')
    throw new TokenParamsError(
      '[0] request.category',
      `"internal" cannot be answered on ${data.network}: its node offers no call traces (debug_traceBlockByHash with callTracer), so the transfer index records no internal transfers there`,
    );
  const fromBlock = query.fromBlock === 'latest' ? coverage.indexedBlock : query.fromBlock;
  const tracedFrom = coverage.internalFromBlock;
  if (query.categories.has('internal') && tracedFrom !== null && fromBlock < tracedFrom)
    throw new TokenParamsError(
      '[0] request.fromBlock',
      `is before block ${tracedFrom} (${numberToHex(tracedFrom)}), where the internal transfers of ${data.network} begin: its node could not trace older blocks (it keeps no state of them), so the transfer index holds no internal transfers before it. Ask fromBlock ${numberToHex(tracedFrom)} or later, or leave out "internal"`,
    );
  if (query.after && query.after.order !== query.order)
    throw new TokenParamsError('[0] request.pageKey', `was given for order "${query.after.order}", not "${query.order}"`);
  const toBlock = query.toBlock === 'latest' ? coverage.indexedBlock : Math.min(query.toBlock, coverage.indexedBlock);
  if (fromBlock > toBlock) return { transfers: [] };

  const page = await data.index.assetTransfers({
    fromBlock,
    toBlock,
    from: query.fromAddress,
    to: query.toAddress,
    contracts: query.contractAddresses,
    native: (['external', 'internal'] as const).filter((kind) => query.categories.has(kind)),
    tokens: [...query.categories].flatMap((category) => TOKEN_KIND[category] ?? []),
    excludeZeroValue: query.excludeZeroValue,
    order: query.order,
    after: query.after,
    limit: query.maxCount,
  });
  const metadata = await metadataOf(data, page.transfers);
  const transfers = page.transfers.map((transfer) => {
    const shaped = shape(transfer, data.nativeCurrency, transfer.contract ? metadata.get(transfer.contract) : undefined);
    if (!query.withMetadata) return shaped;
    const { blockTimestamp } = transfer;
    return { ...shaped, metadata: { blockTimestamp: blockTimestamp === null ? null : new Date(blockTimestamp * 1000).toISOString() } };
  });
  return page.next ? { transfers, pageKey: encodeTransfersPageKey({ ...page.next, order: query.order }) } : { transfers };
}

/** Each token contract's metadata, read at once through the cache; null where it could not be read. */
async function metadataOf(data: AssetTransfersNetwork, transfers: readonly IndexedAssetTransfer[]): Promise<Map<Address, TokenMetadata | null>> {
  const contracts = [...new Set(transfers.flatMap((transfer) => (transfer.contract ? [transfer.contract] : [])))];
  const read = await Promise.all(contracts.map((contract) => data.metadata.getTokenMetadata(data.network, data.chain, data.logos, contract).catch(() => null)));
  return new Map(contracts.map((contract, i) => [contract, read[i]!]));
}

function shape(transfer: IndexedAssetTransfer, native: AssetTransfersNetwork['nativeCurrency'], token: TokenMetadata | null | undefined): AssetTransfer {
  const { kind, position } = transfer;
  const ids = { erc721TokenId: null as string | null, erc1155Metadata: null as AssetTransfer['erc1155Metadata'], tokenId: null as string | null };
  let uniqueId = `${transfer.transactionHash}:log:${position.index}`;
  let value: number | null = null;
  let asset = token?.symbol ?? null;
  let rawContract: AssetTransfer['rawContract'] = { value: null, address: transfer.contract, decimal: null };
  if (kind === 'external' || kind === 'internal') {
    uniqueId = kind === 'external' ? `${transfer.transactionHash}:external` : `${transfer.transactionHash}:internal:${position.index}`;
    value = Number(formatUnits(BigInt(transfer.amount), native.decimals));
    asset = native.symbol;
    rawContract = { value: hexOf(transfer.amount), address: null, decimal: numberToHex(native.decimals) };
  } else if (kind === 'erc20') {
    const decimals = token?.decimals ?? null;
    value = decimals === null ? null : Number(formatUnits(BigInt(transfer.amount), decimals));
    rawContract = { value: word(transfer.amount), address: transfer.contract, decimal: decimals === null ? null : numberToHex(decimals) };
  } else if (kind === 'erc1155') {
    ids.erc1155Metadata = transfer.batch!.map((entry) => ({ tokenId: word(entry.tokenId), value: hexOf(entry.amount) }));
  } else {
    ids.tokenId = word(transfer.tokenId!);
    if (kind === 'erc721') ids.erc721TokenId = ids.tokenId;
  }
  // In the incumbent's order of fields.
  return {
    blockNum: numberToHex(position.block),
    uniqueId,
    hash: transfer.transactionHash,
    from: transfer.from,
    to: transfer.to,
    value,
    ...ids,
    asset,
    category: kind === 'external' || kind === 'internal' ? kind : TOKEN_CATEGORY[kind],
    rawContract,
  };
}
