import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { MULTICALL3_ADDRESS } from '../../src/chain/multicall3.ts';
import { ARTIFACTS } from '../../src/chain/world/artifacts.ts';
import { randomAddress, THIRD_PARTY_KEY, type TestAnvil } from '../../test/support/anvil.ts';

// The collection benchmark's chain: one ERC-721 of `tokens` tokens (the world's AirdropCollection
// artifact, whose tokens all share one hosted document, `baseURI + "pass.json"`, so warming the
// metadata cache fetches one image), minted in order to `owners` addresses in turn: token i to owner
// (i - 1) mod owners. Minted in transactions of 200 so each fits a block.

const PER_TRANSACTION = 200;

export interface CollectionFill {
  contract: Address;
  /** Each token's owner, by token id (decimal; ids 1..tokens). */
  ownerOf: Map<string, Address>;
  owners: Address[];
}

export async function fillCollection(anvil: TestAnvil, shape: { tokens: number; owners: number }, baseUri: string): Promise<CollectionFill> {
  const { abi, bytecode } = ARTIFACTS.AirdropCollection;
  await anvil.client.setCode({ address: MULTICALL3_ADDRESS, bytecode: ARTIFACTS.Multicall3.deployedBytecode });
  const account = privateKeyToAccount(THIRD_PARTY_KEY);
  const send = { account, chain: null } as const;
  let nonce = await anvil.client.getTransactionCount({ address: account.address });
  const deployment = await anvil.client.deployContract({ ...send, abi, bytecode, args: ['Bench Collection 0', 'BENCH0', account.address], nonce: nonce++ });
  const contract = (await anvil.client.waitForTransactionReceipt({ hash: deployment })).contractAddress!;
  const owners = Array.from({ length: shape.owners }, () => randomAddress());
  const recipients = Array.from({ length: shape.tokens }, (_, i) => owners[i % owners.length]!);
  const calls: Hex[] = [await anvil.client.writeContract({ ...send, address: contract, abi, functionName: 'setBaseURI', args: [baseUri], nonce: nonce++ })];
  for (let first = 0; first < recipients.length; first += PER_TRANSACTION) {
    const batch = recipients.slice(first, first + PER_TRANSACTION);
    calls.push(await anvil.client.writeContract({ ...send, address: contract, abi, functionName: 'airdrop', args: [batch], nonce: nonce++, gas: 30_000_000n }));
  }
  for (const receipt of await Promise.all(calls.map((hash) => anvil.client.waitForTransactionReceipt({ hash })))) {
    if (receipt.status !== 'success') throw new Error(`fill transaction ${receipt.transactionHash} reverted`);
  }
  return { contract, ownerOf: new Map(recipients.map((owner, i) => [String(i + 1), owner])), owners };
}
