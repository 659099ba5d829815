import { formatUnits, maxUint256, toEventSelector, zeroHash, type Address, type Hex } from 'viem';
import type { ChainLog, Transfer, TransferKind } from '../transfers/transfer.ts';
import { type CallFrame, type CallLog, executionEvents, frameError } from './call-frames.ts';

// What a simulated transaction does to assets (docs/tracing-and-simulation.md#asset-changes), from its call frames: the native coin
// every successful call moved, the token transfers of its logs as the transfer index reads them
// (the same decoder, so ERC-20, ERC-721, ERC-1155 and CryptoPunks-style moves are told apart alike),
// and approvals. Each change carries the token's decimals, symbol, name and logo.

type AssetType = 'NATIVE' | 'ERC20' | 'ERC721' | 'ERC1155' | 'SPECIAL_NFT';

interface AssetChange {
  assetType: AssetType;
  changeType: 'APPROVE' | 'TRANSFER';
  from: Address;
  to: Address;
  rawAmount: string | null;
  amount: string | null;
  contractAddress: Address | null;
  tokenId: string | null;
  decimals: number | null;
  symbol: string | null;
  name: string | null;
  logo: string | null;
}

export interface AssetChanges {
  changes: AssetChange[];
  gasUsed: Hex | null;
  error: { message: string; data?: Hex } | null;
}

/** A token's facts as the token metadata gives them; every field null when unknown. */
export interface TokenFacts {
  name: string | null;
  symbol: string | null;
  decimals: number | null;
  logo: string | null;
}

/** The ports the asset changes stand on, for one network. */
export interface AssetFacts {
  /** The network's own coin. */
  native: TokenFacts & { decimals: number };
  /** A token contract's facts (the token metadata cache); all null when they cannot be read. */
  token(contract: Address): Promise<TokenFacts>;
  /** Whether an NFT contract is ERC-1155 rather than ERC-721 (ERC-165), for an approval for all, which both emit alike. */
  isErc1155(contract: Address): Promise<boolean>;
}

/** The transfer index's decoder of token logs (src/indexer/decode-logs.ts, handed over by the runtime). */
export type TransferDecoder = (logs: readonly ChainLog[]) => { transfers: readonly Transfer[] };

const APPROVAL = toEventSelector('Approval(address,address,uint256)');
const APPROVAL_FOR_ALL = toEventSelector('ApprovalForAll(address,address,bool)');
const ZERO_WORD = `0x${'0'.repeat(64)}`;

const ASSET_OF_KIND: Record<TransferKind, AssetType> = { erc20: 'ERC20', erc721: 'ERC721', erc1155: 'ERC1155', legacy: 'SPECIAL_NFT' };

/** A change before its token's facts are known: `forAll` approvals learn their standard from the contract. */
interface Draft {
  assetType: AssetType | 'NFT_FOR_ALL';
  changeType: AssetChange['changeType'];
  from: Address;
  to: Address;
  raw: bigint | null;
  contract: Address | null;
  tokenId: string | null;
}

const addressOf = (topic: Hex): Address => `0x${topic.slice(-40).toLowerCase()}`;
const words = (data: Hex) => (data.length - 2) / 64;

/** The approval a log states, if it is one: ERC-20 allowance, ERC-721 approval of one token, approval for all. */
function approvalOf(log: CallLog): Draft | null {
  const [topic0, owner, spender, tokenId] = log.topics;
  const contract = log.address.toLowerCase() as Address;
  if (!owner || !spender || !/^0x([0-9a-fA-F]{64})*$/.test(log.data)) return null;
  const base = { changeType: 'APPROVE' as const, from: addressOf(owner), to: addressOf(spender), contract };
  if (topic0 === APPROVAL && log.topics.length === 3 && words(log.data) === 1) return { ...base, assetType: 'ERC20', raw: BigInt(log.data), tokenId: null };
  if (topic0 === APPROVAL && tokenId && log.topics.length === 4 && words(log.data) === 0) {
    // An approval given to nobody withdraws the token's approval.
    return { ...base, assetType: 'ERC721', raw: spender === ZERO_WORD ? 0n : null, tokenId: BigInt(tokenId).toString() };
  }
  if (topic0 === APPROVAL_FOR_ALL && log.topics.length === 3 && words(log.data) === 1) {
    return { ...base, assetType: 'NFT_FOR_ALL', raw: BigInt(log.data) === 0n ? 0n : null, tokenId: null };
  }
  return null;
}

/** The logs as the decoder reads a block's: one transaction, numbered in execution order. */
function asChainLogs(logs: readonly CallLog[]): ChainLog[] {
  return logs.map((log, logIndex) => ({
    address: log.address,
    topics: log.topics,
    data: log.data,
    blockNumber: 0,
    blockHash: zeroHash,
    blockTimestamp: null,
    transactionHash: zeroHash,
    transactionIndex: 0,
    logIndex,
    removed: false,
  }));
}

/** The changes of the frames that did not fail, in execution order, before their tokens' facts are read. */
function draftsOf(frame: CallFrame, decode: TransferDecoder): Draft[] {
  const events = executionEvents(frame);
  const logs = events.flatMap((event) => (event.kind === 'log' ? [event.log] : []));
  const byLog = Map.groupBy(decode(asChainLogs(logs)).transfers, (transfer) => transfer.logIndex);
  const drafts: Draft[] = [];
  let logIndex = 0;
  for (const event of events) {
    if (event.kind === 'value') {
      drafts.push({ assetType: 'NATIVE', changeType: 'TRANSFER', from: event.from, to: event.to, raw: event.value, contract: null, tokenId: null });
      continue;
    }
    for (const transfer of byLog.get(logIndex) ?? []) {
      const fungible = transfer.kind === 'erc20' || transfer.kind === 'erc1155';
      drafts.push({
        assetType: ASSET_OF_KIND[transfer.kind],
        changeType: 'TRANSFER',
        from: transfer.from,
        to: transfer.to,
        raw: fungible ? BigInt(transfer.amount) : null,
        contract: transfer.contract,
        tokenId: transfer.tokenId,
      });
    }
    const approval = approvalOf(event.log);
    if (approval) drafts.push(approval);
    logIndex++;
  }
  return drafts;
}

/** rawAmount with `decimals` applied; null when either is unknown, and for an unlimited allowance (2^256 - 1), as the incumbent leaves it out. */
function amountOf(draft: Draft, decimals: number | null): string | null {
  if (draft.raw === null || decimals === null) return null;
  if (draft.changeType === 'APPROVE' && draft.raw === maxUint256) return null;
  return formatUnits(draft.raw, decimals);
}

/** The asset changes of one traced transaction; a failed one changes nothing and says why. */
export async function assetChangesOf(frame: CallFrame, decode: TransferDecoder, facts: AssetFacts): Promise<AssetChanges> {
  const error = frameError(frame);
  if (error) return { changes: [], gasUsed: null, error };
  const drafts = draftsOf(frame, decode);
  const contracts = [...new Set(drafts.flatMap((draft) => (draft.contract ? [draft.contract] : [])))];
  const forAll = new Set(drafts.flatMap((draft) => (draft.assetType === 'NFT_FOR_ALL' && draft.contract ? [draft.contract] : [])));
  const [tokens, erc1155] = await Promise.all([
    Promise.all(contracts.map(async (contract) => [contract, await facts.token(contract)] as const)).then((entries) => new Map(entries)),
    Promise.all([...forAll].map(async (contract) => [contract, await facts.isErc1155(contract)] as const)).then((entries) => new Map(entries)),
  ]);
  const changes = drafts.map((draft): AssetChange => {
    const token = draft.contract ? tokens.get(draft.contract)! : facts.native;
    const assetType = draft.assetType === 'NFT_FOR_ALL' ? (erc1155.get(draft.contract!) ? 'ERC1155' : 'ERC721') : draft.assetType;
    // NFTs are whole: their amounts (an ERC-1155 quantity, an approval withdrawn) have no decimals.
    const decimals = assetType === 'NATIVE' || assetType === 'ERC20' ? token.decimals : 0;
    return {
      assetType,
      changeType: draft.changeType,
      from: draft.from.toLowerCase() as Address,
      to: draft.to.toLowerCase() as Address,
      rawAmount: draft.raw === null ? null : draft.raw.toString(),
      amount: amountOf(draft, decimals),
      contractAddress: draft.contract,
      tokenId: draft.tokenId,
      decimals,
      symbol: token.symbol,
      name: token.name,
      logo: token.logo,
    };
  });
  return { changes, gasUsed: frame.gasUsed ?? null, error: null };
}
