import { encodeFunctionData, parseAbi, type Address } from 'viem';
import type { ContractReader } from '../chain/contract-reader.ts';
import { firstWord } from '../chain/token-answers.ts';

// ERC-721 and ERC-1155 contracts both emit ApprovalForAll(owner, operator, approved): which one
// emitted it is asked of the contract (ERC-165 supportsInterface, EIP-1155's id), at the head.

const abi = parseAbi(['function supportsInterface(bytes4 interfaceId) view returns (bool)']);
const SUPPORTS_ERC1155 = encodeFunctionData({ abi, functionName: 'supportsInterface', args: ['0xd9b67a26'] });

/** Whether the contract says it is ERC-1155; a contract that cannot say (no ERC-165, a revert) is taken for ERC-721. */
export function erc1155ByInterface(chain: ContractReader): (contract: Address) => Promise<boolean> {
  return async (contract) => {
    try {
      const answer = await chain.call({ to: contract, data: SUPPORTS_ERC1155 }, await chain.blockNumber());
      const word = firstWord(answer);
      return word !== null && BigInt(word) === 1n;
    } catch {
      return false;
    }
  };
}
