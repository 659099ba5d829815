import { encodeFunctionData, erc20Abi, numberToHex, zeroAddress, type Address, type Hex } from 'viem';
import { firstWord, revertReason } from '../chain/token-answers.ts';
import { readInOneCall, type ReadOutcome } from '../chain/multicall-reads.ts';
import { encodePageKey } from '../node/rpc/methods/token-page-key.ts';
import { parseTokenBalancesParams } from '../node/rpc/methods/token-params.ts';
import type { ContractReader } from '../chain/contract-reader.ts';
import type { TokenIndex } from './token-index.ts';

// crucible_getTokenBalances (docs/token-data.md#crucible_gettokenbalances): the balances of one answer
// are read at one block, the tokens' in one aggregate3 eth_call; a balance that cannot be read is null
// with the reason in a list of contracts, and left out of an "erc20" listing.

interface TokenBalance {
  contractAddress: Address;
  /** A 32-byte zero-padded hex quantity, or null when `error` says why it could not be read. */
  tokenBalance: Hex | null;
  error: string | null;
}

export interface TokenBalancesResult {
  address: Address;
  tokenBalances: TokenBalance[];
  /** "erc20" only, when more balances remain: the next page's key. */
  pageKey?: string;
}

/**
 * Answers `(address, spec = "erc20", options?)`. Throws TokenParamsError for params that do not fit,
 * ContractReadError when the node fails, MulticallError when Multicall3 is missing.
 */
export async function getTokenBalances(chain: ContractReader, index: TokenIndex, params: readonly unknown[]): Promise<TokenBalancesResult> {
  const query = parseTokenBalancesParams(params);
  const { address } = query;
  if (query.spec === 'NATIVE_TOKEN') {
    const balance = await chain.getBalance(address, await chain.blockNumber());
    return { address, tokenBalances: [{ contractAddress: zeroAddress, tokenBalance: numberToHex(balance, { size: 32 }), error: null }] };
  }

  let contracts: Address[] = query.spec === 'erc20' ? [] : query.spec;
  let pageKey: string | undefined;
  const [blockNumber] = await Promise.all([
    chain.blockNumber(),
    query.spec === 'erc20' &&
      index.tokensOfHolder(address, { ...(query.after && { after: query.after }), limit: query.maxCount + 1 }).then((found) => {
        contracts = found.slice(0, query.maxCount).map((contract) => contract.toLowerCase() as Address);
        // One more than the page asked for says that more remain.
        if (found.length > query.maxCount) pageKey = encodePageKey(contracts.at(-1)!);
      }),
  ]);
  if (contracts.length === 0) return { address, tokenBalances: [] };

  const callData = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [address] });
  const outcomes = await readInOneCall(
    chain,
    contracts.map((target) => ({ target, callData })),
    blockNumber,
  );
  // An empty answer may mean no code; each such address is asked once, at the same block.
  const codeless = new Map<Address, Promise<boolean>>();
  const hasNoCode = (contract: Address) => {
    if (!codeless.has(contract))
      codeless.set(
        contract,
        chain.getCode(contract, blockNumber).then((code) => code === '0x'),
      );
    return codeless.get(contract)!;
  };
  const read = await Promise.all(outcomes.map((outcome, i) => balanceOf(contracts[i]!, outcome, hasNoCode)));
  // An "erc20" listing holds the balances that can be read (alchemy-sdk's getTokensForOwner fails on
  // any null one); a list of contracts keeps every one asked for, with its error.
  const tokenBalances = query.spec === 'erc20' ? read.filter((balance) => balance.tokenBalance !== null) : read;
  return pageKey === undefined ? { address, tokenBalances } : { address, tokenBalances, pageKey };
}

async function balanceOf(contractAddress: Address, outcome: ReadOutcome, hasNoCode: (contract: Address) => Promise<boolean>): Promise<TokenBalance> {
  const failed = (error: string): TokenBalance => ({ contractAddress, tokenBalance: null, error });
  if (!outcome.success) {
    const reason = revertReason(outcome.returnData);
    return failed(`the contract reverted balanceOf${reason ? `: ${reason}` : ''}`);
  }
  const word = firstWord(outcome.returnData);
  if (word !== null) return { contractAddress, tokenBalance: word, error: null };
  // A call to an address without code succeeds with nothing; a contract may answer nothing too.
  if (outcome.returnData === '0x' && (await hasNoCode(contractAddress))) return failed('not a contract: no code at this address');
  const size = (outcome.returnData.length - 2) / 2;
  return failed(`bad answer: balanceOf returned ${size} byte${size === 1 ? '' : 's'}, not a 32-byte uint256`);
}
