import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORLD_ADDRESSES } from '../../../src/chain/world/manifest.ts';
import { createTokenMetadataReader, getTokenMetadata } from '../../../src/tokens/metadata.ts';
import { loadTokenList, type TokenList } from '../../../src/token-list/token-list.ts';
import { randomAddress } from '../../support/anvil.ts';
import { SITE_ORIGIN, startWorldChain } from './world-chain.ts';

// crucible_getTokenMetadata on a devnet with the local world (docs/token-data.md#crucible_gettokenmetadata): the world's odd tokens
// decoded, logos from the committed token list, one eth_call per read, reads cached per contract.

const { forge, cusd, ember, bare, slag } = WORLD_ADDRESSES;

let world: Awaited<ReturnType<typeof startWorldChain>>;
let list: TokenList;
beforeAll(async () => {
  [world, list] = await Promise.all([startWorldChain(), loadTokenList(process.cwd(), { siteOrigin: SITE_ORIGIN })]);
});
afterAll(() => world?.stop());

const logos = () => list.logos('crucible-testnet', { localWorld: true });

describe('token metadata', () => {
  it("reads name, symbol and decimals in one eth_call, with the token list's logo", async () => {
    world.take();
    expect(await getTokenMetadata(world.chain, logos(), forge)).toEqual({
      name: 'Forge',
      symbol: 'FORGE',
      decimals: 18,
      logo: `${SITE_ORIGIN}/tokens/forge.svg`,
    });
    expect(world.take()).toEqual({ eth_blockNumber: 1, eth_call: 1 });
    expect(await getTokenMetadata(world.chain, logos(), cusd)).toEqual({
      name: 'Crucible USD',
      symbol: 'cUSD',
      decimals: 6,
      logo: `${SITE_ORIGIN}/tokens/cusd.svg`,
    });
    expect(await getTokenMetadata(world.chain, logos(), slag)).toEqual({ name: 'Slag', symbol: 'SLAG', decimals: 18, logo: `${SITE_ORIGIN}/tokens/slag.svg` });
  });

  it('decodes bytes32 names and symbols, NULs trimmed', async () => {
    expect(await getTokenMetadata(world.chain, logos(), ember)).toEqual({
      name: 'Ember',
      symbol: 'EMBR',
      decimals: 18,
      logo: `${SITE_ORIGIN}/tokens/ember.svg`,
    });
  });

  it('gives nulls for a token without metadata functions (and no listed logo), and for an address that is not a contract', async () => {
    const none = { name: null, symbol: null, decimals: null, logo: null };
    expect(await getTokenMetadata(world.chain, logos(), bare)).toEqual(none);
    world.take();
    expect(await getTokenMetadata(world.chain, logos(), randomAddress())).toEqual(none);
    expect(world.take()).toEqual({ eth_blockNumber: 1, eth_call: 1, eth_getCode: 1 });
  });

  it('gives no logo where the list names none: the world listed for a real network is not the world', async () => {
    expect((await getTokenMetadata(world.chain, list.logos('ethereum-sepolia', { localWorld: false }), forge)).logo).toBeNull();
  });
});

describe('the metadata reader', () => {
  it('reads a contract once per cache lifetime, concurrent misses sharing one read, per network', async () => {
    const reader = createTokenMetadataReader({ ttlMs: 60_000, max: 100 });
    world.take();
    const answers = await Promise.all(Array.from({ length: 5 }, () => reader.getTokenMetadata('crucible-testnet', world.chain, logos(), forge)));
    expect(world.take()).toEqual({ eth_blockNumber: 1, eth_call: 1 });
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(answers[0]).toMatchObject({ symbol: 'FORGE', logo: `${SITE_ORIGIN}/tokens/forge.svg` });

    expect(await reader.getTokenMetadata('crucible-testnet', world.chain, logos(), forge.toLowerCase() as `0x${string}`)).toEqual(answers[0]);
    expect(world.take()).toEqual({});
    await reader.getTokenMetadata('ethereum-sepolia', world.chain, logos(), forge);
    expect(world.take()).toEqual({ eth_blockNumber: 1, eth_call: 1 });
  });

  it('reads again once the lifetime is over', async () => {
    const reader = createTokenMetadataReader({ ttlMs: 1, max: 100 });
    await reader.getTokenMetadata('crucible-testnet', world.chain, logos(), cusd);
    await new Promise((resolve) => setTimeout(resolve, 20));
    world.take();
    await reader.getTokenMetadata('crucible-testnet', world.chain, logos(), cusd);
    expect(world.take()).toEqual({ eth_blockNumber: 1, eth_call: 1 });
  });
});
