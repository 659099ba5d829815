import type { Kysely } from 'kysely';
import { getAddress, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORLD_DEPLOYER } from '../../../../src/chain/world/actors.ts';
import { deployWorld } from '../../../../src/chain/world/deploy.ts';
import { AIRDROP_SIZE } from '../../../../src/chain/world/history.ts';
import { WORLD_ADDRESSES, worldContract, type WorldContractId } from '../../../../src/chain/world/manifest.ts';
import type { NftContractsConfig } from '../../../../src/config/nft-contracts.ts';
import type { Database } from '../../../../src/db/open.ts';
import type { DatabaseSchema } from '../../../../src/db/schema.ts';
import { createTransferIndexer } from '../../../../src/indexer/indexer.ts';
import type { NftChain } from '../../../../src/nfts/contracts/chain.ts';
import { forgetContractsOnReset } from '../../../../src/nfts/contracts/facts-store.ts';
import { loadCollectionsRegistry, type CollectionsRegistry } from '../../../../src/nfts/contracts/registry.ts';
import { createNftContractSource } from '../../../../src/nfts/contracts/source.ts';
import type { NftContractFacts } from '../../../../src/nfts/nft-sources.ts';
import { nftChainOverPool } from '../../../../src/runtime/adapters/nft-chain-over-pool.ts';
import { createUpstreamPool, type UpstreamPool } from '../../../../src/node/upstreams/upstream-pool.ts';
import { ContractReadError } from '../../../../src/chain/contract-reader.ts';
import { randomAddress, startTestAnvil, type TestAnvil } from '../../../support/anvil.ts';
import { databaseEngines } from '../../../support/postgres.ts';
import { waitForIndexed } from '../../indexer/token-chain.ts';

// The contract facts of the local world (src/chain/world/) deployed on a real anvil and indexed from
// scratch, read through the gateway's own upstream pool: chain facts, deployments found on chain,
// token types, the registry's entries and the spam rules, and the cache on both engines.

const NETWORK = 'crucible-testnet';
const HOUR = 3_600_000;
const config: NftContractsConfig = { factsTtlMs: HOUR, massAirdropMinRecipients: 100, deniedUriHosts: [] };
const NFT_IDS = ['relics', 'materials', 'punks', 'airdrop'] as const satisfies readonly WorldContractId[];

/** The chain with every call counted by method, and the calls `refuse` names answered as a node without that state or method would. */
function observed(chain: NftChain, refuse: (method: keyof NftChain, args: unknown[]) => boolean = () => false) {
  const calls: string[] = [];
  const wrapped = Object.fromEntries(
    Object.entries(chain).map(([method, read]) => [
      method,
      async (...args: unknown[]) => {
        calls.push(method);
        if (refuse(method as keyof NftChain, args)) throw new ContractReadError({ kind: 'node-error', code: -32000, message: 'missing trie node' });
        return (read as (...inner: unknown[]) => Promise<unknown>)(...args);
      },
    ]),
  ) as unknown as NftChain;
  return { chain: wrapped, calls };
}

describe.each(databaseEngines())('NFT contract facts on $name', (engine) => {
  let anvil: TestAnvil;
  let database: Database;
  let db: Kysely<DatabaseSchema>;
  let registry: CollectionsRegistry;
  const pools: UpstreamPool[] = [];
  const stops: Array<() => Promise<unknown>> = [];

  const chainAt = (rpcUrl: string): NftChain => {
    const pool = createUpstreamPool({ urls: async () => [rpcUrl], timeoutMs: 5_000, probeIntervalMs: 60_000 });
    pools.push(pool);
    return nftChainOverPool(pool);
  };
  const sourceOver = (chain: NftChain, options: { now?: () => number; config?: NftContractsConfig } = {}) =>
    createNftContractSource({ db, chainOf: () => chain, registry, localWorld: () => true, config: options.config ?? config, now: options.now, log: () => {} });
  const factsOf = async (chain: NftChain, contracts: readonly Address[], options?: Parameters<typeof sourceOver>[1]) =>
    sourceOver(chain, options).contractsOf(NETWORK, contracts);

  beforeAll(async () => {
    anvil = await startTestAnvil({ chainId: 7357001 });
    stops.push(() => anvil.stop());
    await deployWorld(anvil.rpcUrl, { siteOrigin: 'http://localhost:4321' });
    database = await engine.open();
    db = database.db;
    stops.push(() => database.close());
    const indexer = createTransferIndexer({ db, networks: [{ id: NETWORK, rpcUrl: anvil.rpcUrl }], pollIntervalMs: 50, log: () => {} });
    indexer.start();
    try {
      await waitForIndexed(db, NETWORK, anvil.client);
    } finally {
      await indexer.stop();
    }
    registry = await loadCollectionsRegistry(process.cwd(), { siteOrigin: 'http://localhost:4321', dir: 'content' });
  });
  afterAll(async () => {
    for (const pool of pools) pool.close();
    for (const stop of stops.reverse()) await stop();
  });

  it('reads every world NFT contract from the chain, the index and the registry; an ERC-20 and an address without code too', async () => {
    const nobody = randomAddress();
    const contracts = [...NFT_IDS.map((id) => WORLD_ADDRESSES[id]), WORLD_ADDRESSES.forge, nobody];
    const facts = await factsOf(chainAt(anvil.rpcUrl), contracts);
    expect([...facts.keys()].sort()).toEqual(contracts.map((contract) => contract.toLowerCase()).sort());

    // Each deployment is where the chain says: no code the block before, code in it; the world deployer sent it (through the CREATE2 deployer).
    for (const id of [...NFT_IDS, 'forge'] as const) {
      const { deployedBlockNumber, contractDeployer, address } = facts.get(WORLD_ADDRESSES[id].toLowerCase())!;
      expect({ id, address, contractDeployer }).toEqual({ id, address: WORLD_ADDRESSES[id], contractDeployer: getAddress(WORLD_DEPLOYER) });
      expect(deployedBlockNumber).toBeGreaterThan(0);
      expect(await anvil.client.getCode({ address, blockNumber: BigInt(deployedBlockNumber! - 1) })).toBeUndefined();
      expect(await anvil.client.getCode({ address, blockNumber: BigInt(deployedBlockNumber!) })).toMatch(/^0x[0-9a-f]+$/);
    }

    const summary = (fact: NftContractFacts) => ({
      name: fact.name,
      symbol: fact.symbol,
      totalSupply: fact.totalSupply,
      tokenType: fact.tokenType,
      isSpam: fact.isSpam,
      spamClassifications: fact.spamClassifications,
      slug: fact.collection?.slug ?? null,
    });
    const of = (address: Address) => summary(facts.get(address.toLowerCase())!);
    expect(of(WORLD_ADDRESSES.relics)).toEqual({
      name: 'Crucible Relics',
      symbol: 'RELIC',
      totalSupply: null,
      tokenType: 'ERC721',
      isSpam: false,
      spamClassifications: [],
      slug: 'crucible-relics',
    });
    expect(of(WORLD_ADDRESSES.materials)).toEqual({
      name: 'Crucible Materials',
      symbol: 'MAT',
      totalSupply: null,
      tokenType: 'ERC1155',
      isSpam: false,
      spamClassifications: [],
      slug: 'crucible-materials',
    });
    // No ERC-165: its type comes from the legacy events the index saw.
    expect(of(WORLD_ADDRESSES.punks)).toEqual({
      name: 'Crucible Punks',
      symbol: 'CPUNK',
      totalSupply: '1000',
      tokenType: 'NO_SUPPORTED_NFT_STANDARD',
      isSpam: false,
      spamClassifications: [],
      slug: 'crucible-punks',
    });
    expect(of(WORLD_ADDRESSES.airdrop)).toEqual({
      name: 'Drop Pass',
      symbol: 'DROP',
      totalSupply: String(AIRDROP_SIZE),
      tokenType: 'ERC721',
      isSpam: true,
      spamClassifications: ['MassAirdrop'],
      slug: 'drop-pass',
    });
    // An ERC-20: no NFT standard, no NFT transfer indexed, so nothing is known of spam.
    expect(of(WORLD_ADDRESSES.forge)).toEqual({
      name: 'Forge',
      symbol: 'FORGE',
      totalSupply: worldContract('forge').erc20!.supply.toString(),
      tokenType: 'NO_SUPPORTED_NFT_STANDARD',
      isSpam: null,
      spamClassifications: [],
      slug: null,
    });
    const none = facts.get(nobody.toLowerCase())!;
    expect(none).toEqual({
      address: nobody,
      name: null,
      symbol: null,
      totalSupply: null,
      tokenType: 'NOT_A_CONTRACT',
      contractDeployer: null,
      deployedBlockNumber: null,
      marketplaceMetadata: Object.fromEntries(Object.keys(none.marketplaceMetadata).map((field) => [field, null])),
      isSpam: null,
      spamClassifications: [],
      collection: null,
    });
    expect(facts.get(WORLD_ADDRESSES.relics.toLowerCase())!.marketplaceMetadata).toEqual({
      floorPrice: 0.05,
      collectionName: 'Crucible Relics',
      collectionSlug: 'crucible-relics',
      safelistRequestStatus: 'verified',
      imageUrl: 'http://localhost:4321/world/nft/relics/1.svg',
      description: registry.entries.find((entry) => entry.slug === 'crucible-relics')!.description,
      externalUrl: null,
      socialUsername: null,
      discordUrl: null,
      bannerImageUrl: null,
      lastIngestedAt: '2026-11-23T00:00:00.000Z',
    });
  });

  it('flags the airdrop by its mint to newcomers, not by its name or address: above its recipients, the rule does not match', async () => {
    const above = { ...config, massAirdropMinRecipients: AIRDROP_SIZE + 1 };
    const facts = await factsOf(chainAt(anvil.rpcUrl), [WORLD_ADDRESSES.airdrop], { config: above });
    expect(facts.get(WORLD_ADDRESSES.airdrop.toLowerCase())).toMatchObject({ isSpam: false, spamClassifications: [] });
    const at = await factsOf(chainAt(anvil.rpcUrl), [WORLD_ADDRESSES.airdrop], { config: { ...config, massAirdropMinRecipients: AIRDROP_SIZE } });
    expect(at.get(WORLD_ADDRESSES.airdrop.toLowerCase())).toMatchObject({ isSpam: true, spamClassifications: ['MassAirdrop'] });
  });

  it('caches: within the TTL no node is asked anything; after it, what can change is read again and the deployment never', async () => {
    const contracts = NFT_IDS.map((id) => WORLD_ADDRESSES[id]);
    let clock = Date.now() + 10 * HOUR; // rows earlier tests stored are older than the TTL by now
    const first = observed(chainAt(anvil.rpcUrl));
    const source = sourceOver(first.chain, { now: () => clock });
    const fresh = await source.contractsOf(NETWORK, contracts);
    expect(first.calls.filter((method) => method === 'call')).toHaveLength(1); // one aggregate3 for all four
    expect(first.calls).not.toContain('blockReceipts'); // deployments were settled by the first test

    first.calls.length = 0;
    clock += HOUR - 1;
    expect(await source.contractsOf(NETWORK, contracts)).toEqual(fresh);
    expect(first.calls).toEqual([]);
    // What getSpamContracts and the search start from: every stored contract's facts, read from no node.
    const stored = await source.storedContractsOf(NETWORK);
    for (const contract of contracts) expect(stored.get(contract.toLowerCase())).toEqual(fresh.get(contract.toLowerCase()));
    expect(first.calls).toEqual([]);

    // Two clients at once after the TTL: the contracts are read once, by the first.
    first.calls.length = 0;
    clock += 1;
    expect(await Promise.all([source.contractsOf(NETWORK, contracts), source.contractsOf(NETWORK, contracts)])).toEqual([fresh, fresh]);
    expect(first.calls.sort()).toEqual(['blockNumber', 'call', 'genesisHash', ...contracts.map(() => 'getCode')].sort());

    const rows = await db.selectFrom('nft_contracts').select(['genesis_hash', 'contract', 'read_at']).where('network', '=', NETWORK).execute();
    const genesis = (await anvil.client.getBlock({ blockNumber: 0n })).hash.toLowerCase();
    for (const contract of contracts) {
      expect(rows.find((row) => row.contract === contract.toLowerCase())).toEqual({ genesis_hash: genesis, contract: contract.toLowerCase(), read_at: clock });
    }
  });

  it('serves cached facts when no node answers, and never one chain’s facts for another (a reset devnet)', async () => {
    const contracts = [WORLD_ADDRESSES.relics, WORLD_ADDRESSES.airdrop];
    const cached = await factsOf(chainAt(anvil.rpcUrl), contracts);
    const unreachable = chainAt('http://127.0.0.1:9'); // nothing listens on the discard port
    expect(await factsOf(unreachable, contracts, { now: () => Date.now() + 10 * HOUR })).toEqual(cached);

    // A new chain under the same network id, the world not on it. While the index still holds the old chain, answers are
    // of the old chain and the new node is not read for it (its facts would be stored as the old chain's).
    const reset = await startTestAnvil({ chainId: 7357001 });
    stops.push(() => reset.stop());
    const resetChain = observed(chainAt(reset.rpcUrl));
    // Later than any row's TTL (the cache test's clock ran ahead): the facts are due to be read again.
    expect(await factsOf(resetChain.chain, contracts, { now: () => Date.now() + 100 * HOUR })).toEqual(cached);
    expect(resetChain.calls).toEqual(['genesisHash']);
    // Once the index follows the new chain (its indexer saw block 0 change and started again), the old chain's rows are not served.
    const follow = async (rpcUrl: string, client: TestAnvil['client']) => {
      const indexer = createTransferIndexer({ db, networks: [{ id: NETWORK, rpcUrl }], pollIntervalMs: 50, log: () => {} });
      indexer.start();
      try {
        await waitForIndexed(db, NETWORK, client);
      } finally {
        await indexer.stop();
      }
    };
    await follow(reset.rpcUrl, reset.client);
    const facts = await factsOf(chainAt(reset.rpcUrl), contracts);
    for (const contract of contracts)
      expect(facts.get(contract.toLowerCase())).toMatchObject({ tokenType: 'NOT_A_CONTRACT', name: null, contractDeployer: null });
    await follow(anvil.rpcUrl, anvil.client);

    await db.transaction().execute((trx) => forgetContractsOnReset({ network: NETWORK, reason: 'genesis-changed' }, trx));
    expect(await db.selectFrom('nft_contracts').select('contract').where('network', '=', NETWORK).execute()).toEqual([]);
  });

  it('finds a deployment without old state through the node’s own creation index; without either, null and asked again later', async () => {
    const head = await anvil.client.getBlockNumber();
    const oldState = (method: keyof NftChain, args: unknown[]) => method === 'getCode' && args[1] !== head;
    const pruned = observed(chainAt(anvil.rpcUrl), oldState);
    const [relics] = [WORLD_ADDRESSES.relics];
    const expected = (await factsOf(chainAt(anvil.rpcUrl), [relics])).get(relics.toLowerCase())!;
    await db.deleteFrom('nft_contracts').execute();

    const viaNode = await factsOf(pruned.chain, [relics]);
    expect(viaNode.get(relics.toLowerCase())).toMatchObject({ contractDeployer: expected.contractDeployer, deployedBlockNumber: expected.deployedBlockNumber });
    expect(pruned.calls).toContain('contractCreator');
    await db.deleteFrom('nft_contracts').execute();

    const bare = observed(chainAt(anvil.rpcUrl), (method, args) => oldState(method, args) || method === 'contractCreator');
    let clock = Date.now();
    const source = sourceOver(bare.chain, { now: () => clock });
    expect((await source.contractsOf(NETWORK, [relics])).get(relics.toLowerCase())).toMatchObject({
      name: 'Crucible Relics',
      contractDeployer: null,
      deployedBlockNumber: null,
    });
    clock += HOUR;
    bare.calls.length = 0;
    await source.contractsOf(NETWORK, [relics]);
    expect(bare.calls).toContain('contractCreator');
  });
});
