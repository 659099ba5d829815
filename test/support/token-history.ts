import { getAddress, type Address, type Hex } from 'viem';
import { ARTIFACTS } from '../../src/chain/world/artifacts.ts';
import type { TestAnvil } from './anvil.ts';

// A chain with a history for the indexer and the webhooks to read: an ERC-20, an ERC-721 and an
// ERC-1155 collection from the local world's compiled contracts, then `blocks` blocks of several
// transactions each (two ERC-20 transfers, a relic minted and the one before it moved, a batch of
// two materials minted), then `emptyBlocks` blocks without any. Sent by anvil's unlocked dev
// accounts with automatic mining off, each block mined when its transactions are in.

type Client = TestAnvil['client'];

export interface TokenHistory {
  tokens: { erc20: Address; relics: Address; materials: Address };
  /** The head block once written: nothing is mined after it. */
  head: number;
  /** Transfers written, by the index's kind (an ERC-1155 batch counts one per id). */
  transfers: { erc20: number; erc721: number; erc1155: number };
  /** The blocks that hold NFT transfers, ascending, with how many of each kind (an ERC-1155 batch: one per id). */
  nftBlocks: Array<{ number: number; erc721: number; erc1155: number }>;
}

export async function writeTokenHistory(client: Client, options: { blocks: number; emptyBlocks: number }): Promise<TokenHistory> {
  const [owner, alice, bob, carol] = (await client.getAddresses()).map((address) => getAddress(address));
  const deploy = async (artifact: (typeof ARTIFACTS)[keyof typeof ARTIFACTS], args: readonly unknown[]) => {
    const hash = await client.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args, account: owner!, chain: null });
    return getAddress((await client.waitForTransactionReceipt({ hash })).contractAddress!);
  };
  const tokens = {
    erc20: await deploy(ARTIFACTS.WorldToken, ['Forge', 'FRG', 18, owner, 10n ** 24n]),
    relics: await deploy(ARTIFACTS.RelicCollection, ['Relics', 'RLC', owner]),
    materials: await deploy(ARTIFACTS.MaterialCollection, ['Materials', 'MAT', owner]),
  };
  // The token's mint to its owner at deployment.
  const transfers = { erc20: 1, erc721: 0, erc1155: 0 };
  const nftBlocks: TokenHistory['nftBlocks'] = [];
  // A gas limit of their own: an estimate against the last block can fall short once another
  // transaction of the same block ran first (a balance it emptied costs more to fill again).
  const write = (from: Address, address: Address, abi: readonly unknown[], functionName: string, args: readonly unknown[]) =>
    client.writeContract({ address, abi, functionName, args, account: from, chain: null, gas: 500_000n } as never) as Promise<Hex>;

  const hashes: Hex[] = [];
  await client.setAutomine(false);
  try {
    for (let block = 0; block < options.blocks; block++) {
      const relic = 1000n + BigInt(block);
      // One sender's transactions one after another (each takes the next nonce); the two senders side by side.
      const fromOwner = async () => [
        await write(owner!, tokens.erc20, ARTIFACTS.WorldToken.abi, 'transfer', [alice, 1000n + BigInt(block)]),
        await write(owner!, tokens.erc20, ARTIFACTS.WorldToken.abi, 'transfer', [bob, 1n]),
        await write(owner!, tokens.relics, ARTIFACTS.RelicCollection.abi, 'mint', [alice, [relic]]),
        await write(owner!, tokens.materials, ARTIFACTS.MaterialCollection.abi, 'mintBatch', [carol, [1n, 2n], [BigInt(block) + 1n, 1n]]),
      ];
      // The relic minted in the block before, moved on by its holder.
      const fromAlice = async () =>
        block > 0 ? [await write(alice!, tokens.relics, ARTIFACTS.RelicCollection.abi, 'transferFrom', [alice, bob, relic - 1n])] : [];
      const [owned, alices] = await Promise.all([fromOwner(), fromAlice()]);
      hashes.push(...owned, ...alices);
      await client.mine({ blocks: 1 });
      const moved = { erc721: block > 0 ? 2 : 1, erc1155: 2 };
      nftBlocks.push({ number: Number(await client.getBlockNumber({ cacheTime: 0 })), ...moved });
      transfers.erc20 += 2;
      transfers.erc721 += moved.erc721;
      transfers.erc1155 += moved.erc1155;
    }
    await client.mine({ blocks: options.emptyBlocks });
  } finally {
    await client.setAutomine(true);
  }
  const receipts = await Promise.all(hashes.map((hash) => client.getTransactionReceipt({ hash })));
  const failed = receipts.filter((receipt) => receipt.status !== 'success');
  if (failed.length > 0) throw new Error(`${failed.length} history transactions reverted (${failed[0]!.transactionHash})`);
  return { tokens, head: Number(await client.getBlockNumber({ cacheTime: 0 })), transfers, nftBlocks };
}
