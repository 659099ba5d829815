import { encodeFunctionData, erc20Abi } from 'viem';
import { firstWord } from '../chain/token-answers.ts';
import type { ContractReader } from '../chain/contract-reader.ts';
import { parseTokenAllowanceParams } from '../node/rpc/methods/token-params.ts';

// crucible_getTokenAllowance (docs/token-data.md): the ERC-20 allowance(owner, spender), read at the
// head in one eth_call, answered in decimal.

/** The contract answered the call with something that is not a uint256: no code there, or another kind of contract. */
export class NotAnAllowanceError extends Error {
  override name = 'NotAnAllowanceError';
}

/** Answers `({ contract, owner, spender })`. Throws TokenParamsError, ContractReadError (a revert, no node), NotAnAllowanceError. */
export async function getTokenAllowance(chain: ContractReader, params: readonly unknown[]): Promise<string> {
  const { contract, owner, spender } = parseTokenAllowanceParams(params);
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'allowance', args: [owner, spender] });
  const returned = await chain.call({ to: contract, data }, await chain.blockNumber());
  const word = firstWord(returned);
  if (word === null) {
    const size = (returned.length - 2) / 2;
    throw new NotAnAllowanceError(
      `${contract} answered allowance(owner, spender) with ${size} byte${size === 1 ? '' : 's'}, not a uint256: it is no ERC-20${size === 0 ? ' (or has no code)' : ''}`,
    );
  }
  return BigInt(word).toString();
}
