import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { MULTICALL3_ADDRESS } from '../../src/chain/multicall3.ts';
import { ARTIFACTS } from '../../src/chain/world/artifacts.ts';
import { THIRD_PARTY_KEY, type TestAnvil } from '../../test/support/anvil.ts';

// The NFT benchmark's chain: `collections` ERC-721s (the world's RelicCollection artifact, whose
// tokens below 100 have hosted metadata at `baseURI + id + ".json"`), each pointed at its base URI
// and minting tokens 0..perCollection-1 to one owner in one transaction. Multicall3 is installed
// by code, as the local world installs it: the metadata store and the contract facts read through it.

export interface NftFill {
  collections: number;
  perCollection: number;
}

export async function fillNfts(anvil: TestAnvil, owner: Address, shape: NftFill, baseUri: (collection: number) => string): Promise<Address[]> {
  const { abi, bytecode } = ARTIFACTS.RelicCollection;
  if (shape.perCollection > 100) throw new Error('RelicCollection hosts the metadata of tokens 0..99 only');
  await anvil.client.setCode({ address: MULTICALL3_ADDRESS, bytecode: ARTIFACTS.Multicall3.deployedBytecode });
  const account = privateKeyToAccount(THIRD_PARTY_KEY);
  const send = { account, chain: null } as const;
  let nonce = await anvil.client.getTransactionCount({ address: account.address });
  const deployments: Hex[] = [];
  for (let c = 0; c < shape.collections; c++) {
    deployments.push(
      await anvil.client.deployContract({ ...send, abi, bytecode, args: [`Bench Collection ${c}`, `BENCH${c}`, account.address], nonce: nonce++ }),
    );
  }
  const receipts = await Promise.all(deployments.map((hash) => anvil.client.waitForTransactionReceipt({ hash })));
  const contracts = receipts.map((receipt) => receipt.contractAddress!);
  const ids = Array.from({ length: shape.perCollection }, (_, id) => BigInt(id));
  const calls: Hex[] = [];
  for (const [c, address] of contracts.entries()) {
    calls.push(await anvil.client.writeContract({ ...send, address, abi, functionName: 'setBaseURI', args: [baseUri(c)], nonce: nonce++ }));
    calls.push(await anvil.client.writeContract({ ...send, address, abi, functionName: 'mint', args: [owner, ids], nonce: nonce++ }));
  }
  for (const receipt of await Promise.all(calls.map((hash) => anvil.client.waitForTransactionReceipt({ hash })))) {
    if (receipt.status !== 'success') throw new Error(`fill transaction ${receipt.transactionHash} reverted`);
  }
  return contracts;
}
