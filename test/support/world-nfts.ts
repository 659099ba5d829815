import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Address } from 'viem';
import { DEMO_WALLET } from '../../src/chain/world/actors.ts';
import { worldHoldings } from '../../src/chain/world/history.ts';
import { WORLD_ADDRESSES } from '../../src/chain/world/manifest.ts';
import { RELIC_FIRST_ONCHAIN_ID } from '../../src/chain/world/metadata.ts';
import { erc1155UriId } from '../../src/chain/erc1155-uri.ts';
import { projectRoot } from './build.ts';

// The demo wallet's NFTs as the world's history leaves them, each with the hosted document
// (public/world/nft/) its metadata comes from: what getNFTs and the gallery must show.

export interface ExpectedNft {
  contract: Address;
  tokenId: string;
  balance: string;
  /** The hosted document under public/world/nft/, or null: an on-chain (data:) URI, or no URI at all (the legacy NFT). */
  document: string | null;
  /** The legacy NFT has no tokenURI: no metadata, no image. */
  hasMetadata: boolean;
  airdrop: boolean;
}

export function demoWalletNfts(): ExpectedNft[] {
  const held = worldHoldings().get(DEMO_WALLET)!;
  const item = (id: 'relics' | 'punks' | 'airdrop', tokenId: bigint): ExpectedNft => ({
    contract: WORLD_ADDRESSES[id],
    tokenId: String(tokenId),
    balance: '1',
    document: id === 'relics' ? (tokenId < RELIC_FIRST_ONCHAIN_ID ? `relics/${tokenId}.json` : null) : id === 'airdrop' ? 'airdrop/pass.json' : null,
    hasMetadata: id !== 'punks',
    airdrop: id === 'airdrop',
  });
  return [
    ...(['relics', 'punks', 'airdrop'] as const).flatMap((id) => (held.items[id] ?? []).map((tokenId) => item(id, tokenId))),
    ...[...held.materials]
      .filter(([, amount]) => amount > 0n)
      .map(([tokenId, amount]) => ({
        contract: WORLD_ADDRESSES.materials,
        tokenId: String(tokenId),
        balance: String(amount),
        document: `materials/${erc1155UriId(tokenId)}.json`,
        hasMetadata: true,
        airdrop: false,
      })),
  ];
}

/** `contract:tokenId`, the key an NFT is found by. */
export const nftKey = (contract: string, tokenId: string) => `${contract.toLowerCase()}:${tokenId}`;

/** The `name` of a hosted document. */
export async function documentName(document: string): Promise<string> {
  return (JSON.parse(await readFile(join(projectRoot, 'public/world/nft', document), 'utf8')) as { name: string }).name;
}

export type WorldCollectionId = 'relics' | 'materials' | 'punks' | 'airdrop';

/** Who holds each token of a world collection once its history ran: token id (decimal) → owner → balance. */
export function worldTokenHolders(collection: WorldCollectionId): Map<string, Map<Address, bigint>> {
  const tokens = new Map<string, Map<Address, bigint>>();
  const hold = (tokenId: bigint, owner: Address, balance: bigint) => {
    const owners = tokens.get(String(tokenId)) ?? new Map<Address, bigint>();
    owners.set(owner, balance);
    tokens.set(String(tokenId), owners);
  };
  for (const [owner, held] of worldHoldings()) {
    if (collection === 'materials') for (const [tokenId, amount] of held.materials) if (amount > 0n) hold(tokenId, owner, amount);
    if (collection !== 'materials') for (const tokenId of held.items[collection] ?? []) hold(tokenId, owner, 1n);
  }
  return tokens;
}

/** Token ids (decimal) as numbers sort. */
export const byTokenId = (a: string, b: string) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);
