import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { isWellKnownDevKey } from '../../../src/chain/dev-accounts.ts';
import { DEMO_WALLET, WORLD_DEPLOYER, WORLD_DEPLOYER_KEY, WORLD_HOLDERS } from '../../../src/chain/world/actors.ts';
import { AIRDROP_SIZE, WORLD_HISTORY, worldHoldings, type Erc20Id } from '../../../src/chain/world/history.ts';
import { MULTICALL3_ADDRESS, WORLD_ADDRESSES, WORLD_CONTRACTS } from '../../../src/chain/world/manifest.ts';
import { hostedMetadataDocuments, worldBaseUri } from '../../../src/chain/world/metadata.ts';

const nftRoot = join(import.meta.dirname, '../../../public/world/nft');
const erc20Ids = WORLD_CONTRACTS.filter((contract) => contract.kind === 'erc20').map((contract) => contract.id as Erc20Id);

describe('the world manifest', () => {
  it('gives every contract its own checksummed address, Multicall3 its canonical one', () => {
    const addresses = WORLD_CONTRACTS.map((contract) => contract.address);
    expect(new Set(addresses).size).toBe(addresses.length);
    for (const address of addresses) expect(address).toBe(getAddress(address));
    expect(WORLD_ADDRESSES.multicall3).toBe(MULTICALL3_ADDRESS);
    const salts = WORLD_CONTRACTS.flatMap((contract) => (contract.install.via === 'create2' ? [contract.install.salt] : []));
    expect(new Set(salts).size).toBe(WORLD_CONTRACTS.length - 1);
  });

  it('has one contract of each kind the docs promise', () => {
    const kinds = WORLD_CONTRACTS.map((contract) => contract.kind);
    for (const kind of ['erc20', 'erc721', 'erc1155', 'legacy-nft', 'multicall']) expect(kinds).toContain(kind);
    expect(erc20Ids).toEqual(['forge', 'cusd', 'ember', 'bare', 'slag']);
  });

  it('acts with none of the anvil dev accounts, whose nonces the faucet tests assert', () => {
    expect(isWellKnownDevKey(WORLD_DEPLOYER_KEY)).toBe(false);
    const actors = new Set([WORLD_DEPLOYER, DEMO_WALLET, ...Object.values(WORLD_HOLDERS)]);
    expect(actors.size).toBe(6);
    for (const step of WORLD_HISTORY.flat()) expect(actors).toContain(step.from);
  });
});

describe('the world history', () => {
  const holdings = worldHoldings();
  const demo = holdings.get(DEMO_WALLET)!;

  it('leaves the demo wallet some of every token of the world', () => {
    for (const id of erc20Ids) expect(demo.erc20[id]).toBeGreaterThan(0n);
    expect(demo.items.relics).toEqual([1n, 2n, 4n, 100n]);
    expect(demo.items.punks).toEqual([0n, 2n]);
    expect(demo.items.airdrop).toEqual([1n]);
    expect([...demo.materials]).toEqual([
      [1n, 7n],
      [2n, 265n],
      [3n, 1n],
    ]);
  });

  it('never spends what a holder does not have, and keeps each supply whole', () => {
    for (const held of holdings.values()) {
      for (const amount of Object.values(held.erc20)) expect(amount).toBeGreaterThanOrEqual(0n);
      for (const amount of held.materials.values()) expect(amount).toBeGreaterThanOrEqual(0n);
    }
    for (const id of erc20Ids) {
      const total = [...holdings.values()].reduce((sum, held) => sum + (held.erc20[id] ?? 0n), 0n);
      expect(total).toBe(WORLD_CONTRACTS.find((contract) => contract.id === id)!.erc20!.supply);
    }
  });

  it('has a token once held and now at zero, a holder ending in 0xff with the reverting token, and the airdrop to its full size', () => {
    expect(holdings.get(WORLD_HOLDERS.cai)!.erc20.forge).toBe(0n);
    expect(WORLD_HOLDERS.fay.toLowerCase().endsWith('ff')).toBe(true);
    expect(holdings.get(WORLD_HOLDERS.fay)!.erc20.slag).toBeGreaterThan(0n);
    const airdropped = [...holdings.values()].filter((held) => held.items.airdrop?.length);
    expect(airdropped).toHaveLength(AIRDROP_SIZE);
  });
});

describe('hosted metadata', () => {
  it('points base URIs at the site origin, whatever the origin is written with', () => {
    expect(worldBaseUri('http://localhost:4321', 'relics')).toBe('http://localhost:4321/world/nft/relics/');
    expect(worldBaseUri('https://crucible.example/', 'materials')).toBe('https://crucible.example/world/nft/materials/');
  });

  it('has a JSON document for every hosted token, each with an image beside it, and no file nothing uses', async () => {
    const expected = new Set<string>();
    for (const document of hostedMetadataDocuments()) {
      const metadata = JSON.parse(await readFile(join(nftRoot, document), 'utf8')) as { name?: unknown; image?: unknown };
      expect(metadata.name, document).toEqual(expect.any(String));
      expect(metadata.image, document).toMatch(/^[a-z0-9-]+\.svg$/);
      const image = new URL(metadata.image as string, `https://site.example/world/nft/${document}`).pathname.replace('/world/nft/', '');
      await expect(readFile(join(nftRoot, image), 'utf8'), image).resolves.toMatch(/^<svg /);
      expected.add(document).add(image);
    }
    const present = (await readdir(nftRoot, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(nftRoot.length + 1));
    expect(present.sort()).toEqual([...expected].sort());
  });
});
