import { decodeFunctionResult, encodeFunctionData, parseAbi, type Address } from 'viem';
import { readInOneCall } from '../../chain/multicall-reads.ts';
import type { ContractReader } from '../../chain/contract-reader.ts';
import type { NftRef } from '../nft-sources.ts';

// The token URIs of many NFTs in one Multicall3 eth_call at one block (docs/nft-data.md#metadata-fetching): ERC-721's
// tokenURI(id), ERC-1155's uri(id) (its `{id}` left in: what the contract returned). Each read may
// fail on its own (a revert, no such function, not a string): its failure is a value, `raw.error`.
// A legacy NFT (CryptoPunks-style, before ERC-721) is asked tokenURI too; it has none.

const ABI = parseAbi(['function tokenURI(uint256 tokenId) view returns (string)', 'function uri(uint256 id) view returns (string)']);

export type TokenUriRead = { ok: true; uri: string } | { ok: false; reason: string };

/** The function a token's URI is read with. */
const uriFunctionOf = (kind: NftRef['kind']): 'tokenURI' | 'uri' => (kind === 'erc1155' ? 'uri' : 'tokenURI');

/** Each token's URI, in the order given, all read at `blockNumber`. Throws ContractReadError or MulticallError when the call as a whole fails. */
export async function readTokenUris(chain: ContractReader, tokens: readonly NftRef[], blockNumber: bigint): Promise<TokenUriRead[]> {
  const reads = tokens.map((token) => ({
    target: token.contract.toLowerCase() as Address,
    callData: encodeFunctionData({ abi: ABI, functionName: uriFunctionOf(token.kind), args: [BigInt(token.tokenId)] }),
  }));
  const outcomes = await readInOneCall(chain, reads, blockNumber);
  return outcomes.map((outcome, index): TokenUriRead => {
    const functionName = uriFunctionOf(tokens[index]!.kind);
    if (!outcome.success) return { ok: false, reason: `${functionName} reverted` };
    if (outcome.returnData === '0x') return { ok: false, reason: `no ${functionName}: the contract answered nothing` };
    try {
      return { ok: true, uri: decodeFunctionResult({ abi: ABI, functionName, data: outcome.returnData }) };
    } catch {
      return { ok: false, reason: `${functionName} did not return a string` };
    }
  });
}
