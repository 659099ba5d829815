import { decodeAbiParameters, encodeFunctionData, parseAbi, type Address, type Hex } from 'viem';
import { decodeTokenText, firstWord } from '../../chain/token-answers.ts';
import { readInOneCall, type ContractRead, type ReadOutcome } from '../../chain/multicall-reads.ts';
import type { NftKind } from '../../transfers/transfer.ts';
import type { ContractReader } from '../../chain/contract-reader.ts';

// A contract's facts as the chain states them (docs/nft-data.md#contract-facts), many contracts read in one Multicall3
// aggregate3 at one block: ERC-165 support for ERC-721 and ERC-1155 (and 0xffffffff, which a real
// ERC-165 contract denies, so a contract answering "yes" to everything is taken at nothing),
// name(), symbol(), totalSupply() (ERC-721 Enumerable, ERC-1155 Supply, legacy NFTs; null where
// absent), and one held token's URI, whose host the spam rules look at.

const abi = parseAbi([
  'function supportsInterface(bytes4 interfaceId) view returns (bool)',
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function totalSupply() view returns (uint256)',
  'function tokenURI(uint256 tokenId) view returns (string)',
  'function uri(uint256 id) view returns (string)',
]);

/** ERC-165 interface ids (EIP-721, EIP-1155), and the one every ERC-165 contract must deny. */
const ERC721_INTERFACE: Hex = '0x80ac58cd';
const ERC1155_INTERFACE: Hex = '0xd9b67a26';
const INVALID_INTERFACE: Hex = '0xffffffff';

/** What ERC-165 says the contract is; `none` when it says neither (no ERC-165, or another standard). */
type Erc165Standard = 'ERC721' | 'ERC1155' | 'none';

/** A token the contract holds an owner for, read for its URI: `uri(id)` for ERC-1155, `tokenURI(id)` otherwise. */
export interface SampleToken {
  tokenId: string;
  kind: NftKind;
}

export interface ContractChainFacts {
  standard: Erc165Standard;
  name: string | null;
  symbol: string | null;
  /** Decimal. */
  totalSupply: string | null;
  /** The host of the sample token's http(s) URI, lowercase; null for other schemes or when it gave none. */
  tokenUriHost: string | null;
}

const call = (target: Address, data: Hex): ContractRead => ({ target, callData: data });
const supports = (target: Address, interfaceId: Hex) => call(target, encodeFunctionData({ abi, functionName: 'supportsInterface', args: [interfaceId] }));

function contractReads(contract: Address, sample: SampleToken | null): ContractRead[] {
  const reads = [
    supports(contract, ERC721_INTERFACE),
    supports(contract, ERC1155_INTERFACE),
    supports(contract, INVALID_INTERFACE),
    call(contract, encodeFunctionData({ abi, functionName: 'name' })),
    call(contract, encodeFunctionData({ abi, functionName: 'symbol' })),
    call(contract, encodeFunctionData({ abi, functionName: 'totalSupply' })),
  ];
  if (sample) {
    const functionName = sample.kind === 'erc1155' ? 'uri' : 'tokenURI';
    reads.push(call(contract, encodeFunctionData({ abi, functionName, args: [BigInt(sample.tokenId)] })));
  }
  return reads;
}

/** Exactly `true`: a bool is one word holding 1. */
const saidYes = (outcome: ReadOutcome | undefined) => outcome?.success === true && firstWord(outcome.returnData) === `0x${'0'.repeat(63)}1`;
const text = (outcome: ReadOutcome | undefined) => (outcome?.success ? decodeTokenText(outcome.returnData) : null);

function number(outcome: ReadOutcome | undefined): string | null {
  const word = outcome?.success ? firstWord(outcome.returnData) : null;
  return word === null ? null : BigInt(word).toString();
}

/** The host of an http(s) URI a contract returned; null otherwise. */
function uriHost(outcome: ReadOutcome | undefined): string | null {
  if (!outcome?.success) return null;
  let uri: string;
  try {
    [uri] = decodeAbiParameters([{ type: 'string' }], outcome.returnData);
    const url = new URL(uri.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname.toLowerCase() : null;
  } catch {
    return null;
  }
}

/** Reads in contract order, outcomes decoded (a contract without code answers every read with nothing). */
export function decodeContractReads(outcomes: readonly ReadOutcome[]): ContractChainFacts {
  const [erc721, erc1155, invalid, name, symbol, totalSupply, tokenUri] = outcomes;
  const honest = !saidYes(invalid);
  return {
    standard: honest && saidYes(erc721) ? 'ERC721' : honest && saidYes(erc1155) ? 'ERC1155' : 'none',
    name: text(name),
    symbol: text(symbol),
    totalSupply: number(totalSupply),
    tokenUriHost: uriHost(tokenUri),
  };
}

/** Every contract's facts in one aggregate3 call at `blockNumber`, in input order. Throws ContractReadError, MulticallError. */
export async function readContractFacts(
  chain: ContractReader,
  contracts: ReadonlyArray<{ address: Address; sample: SampleToken | null }>,
  blockNumber: bigint,
): Promise<ContractChainFacts[]> {
  const perContract = contracts.map(({ address, sample }) => contractReads(address, sample));
  const outcomes = await readInOneCall(chain, perContract.flat(), blockNumber);
  let next = 0;
  return perContract.map((reads) => {
    const own = outcomes.slice(next, next + reads.length);
    next += reads.length;
    return decodeContractReads(own);
  });
}
