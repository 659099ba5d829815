import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Alchemy, NftFilters, NftOrdering } from 'alchemy-sdk';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadAppKeySecret } from '../../../src/apps/key-secret.ts';
import { createAppStore } from '../../../src/apps/store.ts';
import { DEMO_WALLET, WORLD_HOLDERS } from '../../../src/chain/world/actors.ts';
import { AIRDROP_SIZE } from '../../../src/chain/world/history.ts';
import { WORLD_ADDRESSES } from '../../../src/chain/world/manifest.ts';
import { openDatabase, type Database } from '../../../src/db/open.ts';
import { listSpamReports } from '../../../src/nfts/contracts/spam-reports.ts';
import { randomAddress } from '../../support/anvil.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { byTokenId, worldTokenHolders, type WorldCollectionId } from '../../support/world-nfts.ts';
import { startWorldSite, type WorldSite } from '../../support/world-site.ts';

// alchemy-sdk 3.6.5's nft namespace, every REST method of it (but the marketplace's getFloorPrice
// and getNFTSales), against the production server in local mode as `npm start` runs it, on SQLite
// and on PostgreSQL: one `new Alchemy({ url })` with url `{node_url}/v2/<key>` and one with
// `{node_url}/nft/v3/<key>`, over the local world's ERC-721 (relics), ERC-1155 (materials), legacy
// (punks) and mass-airdropped (airdrop) collections. Expected holdings come from the world's history
// (src/chain/world/history.ts), not from the server.

const APP_KEY_SECRET = randomBytes(32).toString('hex');
const { relics, materials, punks, airdrop } = WORLD_ADDRESSES;
const holders = (collection: WorldCollectionId) => worldTokenHolders(collection);
const lower = (address: string) => address.toLowerCase();
const byLowercase = (a: string, b: string) => (lower(a) < lower(b) ? -1 : lower(a) > lower(b) ? 1 : 0);

/** Every owner of a collection, by address as the server sorts them. */
function ownersOf(collection: WorldCollectionId): Address[] {
  const owners = new Set<Address>();
  for (const tokenOwners of holders(collection).values()) for (const owner of tokenOwners.keys()) owners.add(owner);
  return [...owners].sort(byLowercase);
}

describe.each(databaseEngines())('alchemy-sdk 3.6.5 nft namespace through the production server on $name', (engine) => {
  let site: WorldSite;
  let key: string;
  let database: Database;
  let nodeUrl: string;
  let databaseEnv: Awaited<ReturnType<typeof engine.location>>;

  beforeAll(async () => {
    const location = await engine.location();
    databaseEnv = location;
    site = await startWorldSite({
      env: location.engine === 'postgres' ? { DATABASE_URL: location.url, APP_KEY_SECRET } : {},
      prepare: async (databasePath) => {
        const at = location.engine === 'postgres' ? location : ({ engine: 'sqlite', path: databasePath } as const);
        database = await openDatabase(at);
        const keySecret = location.engine === 'postgres' ? Buffer.from(APP_KEY_SECRET, 'hex') : await loadAppKeySecret({ ...at, appKeySecret: null });
        ({ key } = await createAppStore(database, { keySecret, networks: [] }).create({ name: 'sdk nft namespace', computeUnitsPerSecond: 100_000 }));
      },
    });
    nodeUrl = `${site.origin}/node/${site.network}`;
    // The index holds the world, and every relic and material has its metadata (the worker, or the answers, fetch them).
    const sdk = new Alchemy({ url: `${nodeUrl}/v2/${key}`, maxRetries: 0 });
    await vi.waitFor(
      async () => {
        for (const contract of [relics, materials]) {
          const page = await sdk.nft.getNftsForContract(contract);
          expect(page.nfts.length).toBeGreaterThan(0);
          for (const nft of page.nfts) expect(nft.timeLastUpdated, `${contract} ${nft.tokenId}`).toBeDefined();
        }
      },
      { timeout: 180_000, interval: 500 },
    );
  }, 300_000);

  afterAll(async () => {
    await site?.stop();
    await database?.close();
  });

  describe.each(['v2', 'nft/v3'])('with url {node_url}/%s/<key>', (prefix) => {
    const sdk = () => new Alchemy({ url: `${nodeUrl}/${prefix}/${key}`, maxRetries: 0 });

    it('getNftsForOwner pages the demo wallet by pageKey, with TRANSFERTIME and filters; its iterator and verifyNftOwnership agree', async () => {
      const alchemy = sdk();
      const expected = (['relics', 'materials', 'punks', 'airdrop'] as const)
        .flatMap((collection) =>
          [...holders(collection)].flatMap(([tokenId, owners]) =>
            owners.has(DEMO_WALLET) ? [`${lower(WORLD_ADDRESSES[collection])}:${tokenId}:${owners.get(DEMO_WALLET)}`] : [],
          ),
        )
        .sort();
      const seen: string[] = [];
      let pageKey: string | undefined;
      do {
        const page = await alchemy.nft.getNftsForOwner(DEMO_WALLET, { pageSize: 3, orderBy: NftOrdering.TRANSFERTIME, ...(pageKey && { pageKey }) });
        expect(page.totalCount).toBe(expected.length);
        seen.push(...page.ownedNfts.map((nft) => `${lower(nft.contract.address)}:${nft.tokenId}:${nft.balance}`));
        pageKey = page.pageKey;
      } while (pageKey);
      expect(seen.sort()).toEqual(expected);

      const iterated: string[] = [];
      for await (const nft of alchemy.nft.getNftsForOwnerIterator(DEMO_WALLET, { excludeFilters: [NftFilters.SPAM] })) {
        iterated.push(`${lower(nft.contract.address)}:${nft.tokenId}:${nft.balance}`);
      }
      expect(iterated.sort()).toEqual(expected.filter((entry) => !entry.startsWith(lower(airdrop))));

      const relic = (await alchemy.nft.getNftsForOwner(DEMO_WALLET, { contractAddresses: [relics] })).ownedNfts[0]!;
      expect(relic.contract.openSeaMetadata).toMatchObject({
        collectionName: 'Crucible Relics',
        collectionSlug: 'crucible-relics',
        safelistRequestStatus: 'verified',
      });
      expect(await alchemy.nft.verifyNftOwnership(DEMO_WALLET, relics)).toBe(true);
      expect(await alchemy.nft.verifyNftOwnership(randomAddress(), relics)).toBe(false);
      expect(await alchemy.nft.verifyNftOwnership(DEMO_WALLET, [relics, materials])).toEqual({ [relics]: true, [materials]: true });
    });

    it('getNftMetadata and getNftMetadataBatch answer ERC-721, ERC-1155 and the legacy NFT, by decimal, hex and number ids, in order', async () => {
      const alchemy = sdk();
      const relic = await alchemy.nft.getNftMetadata(relics, '0x1');
      expect(relic).toMatchObject({ tokenId: '1', tokenType: 'ERC721', contract: { address: relics, name: 'Crucible Relics', symbol: 'RELIC' } });
      expect(relic.name).toEqual(expect.any(String));
      expect(relic.contract.spamClassifications).toEqual([]);
      const batch = await alchemy.nft.getNftMetadataBatch([
        { contractAddress: materials, tokenId: 2 },
        { contractAddress: relics, tokenId: '0x64' },
        { contractAddress: punks, tokenId: '0' },
        { contractAddress: relics, tokenId: '999999' },
      ]);
      expect(batch.nfts.map((nft) => [nft.contract.address, nft.tokenId, nft.tokenType])).toEqual([
        [materials, '2', 'ERC1155'],
        [relics, '100', 'ERC721'],
        [punks, '0', 'NO_SUPPORTED_NFT_STANDARD'],
        [relics, '999999', 'ERC721'],
      ]);
      expect(batch.nfts[0]!.name).toEqual(expect.any(String));
      expect(batch.nfts[1]!.tokenUri).toMatch(/^data:/);
      expect(batch.nfts[2]!.raw.error).toMatch(/tokenURI/);
      expect(batch.nfts[3]!.raw.error).toMatch(/not found/);
      await expect(alchemy.nft.getNftMetadata(relics, '999999')).rejects.toThrow(/^404: .*not_found/);
      await expect(alchemy.nft.getNftMetadata('0x1234', '1')).rejects.toThrow(/^400: .*contractAddress/);
    });

    it('getContractMetadata, getContractMetadataBatch and searchContractMetadata answer the collections with their registry data', async () => {
      const alchemy = sdk();
      const contract = await alchemy.nft.getContractMetadata(materials);
      expect(contract).toMatchObject({ address: materials, name: 'Crucible Materials', tokenType: 'ERC1155' });
      expect(contract.openSeaMetadata).toMatchObject({ collectionSlug: 'crucible-materials', safelistRequestStatus: 'approved' });
      const batch = await alchemy.nft.getContractMetadataBatch([punks, relics]);
      expect(batch.contracts.map((known) => [known.address, known.name, known.tokenType])).toEqual([
        [punks, 'Crucible Punks', 'NO_SUPPORTED_NFT_STANDARD'],
        [relics, 'Crucible Relics', 'ERC721'],
      ]);
      const found = await alchemy.nft.searchContractMetadata('crucible RELIC');
      expect(found.contracts.map((known) => known.address)).toEqual([relics]);
      expect((await alchemy.nft.searchContractMetadata('no such collection anywhere')).contracts).toEqual([]);
    });

    it('getCollectionMetadata answers a registry collection by slug; an unknown slug is 404', async () => {
      const alchemy = sdk();
      const collection = await alchemy.nft.getCollectionMetadata('crucible-relics');
      expect(collection).toMatchObject({ name: 'Crucible Relics', slug: 'crucible-relics', floorPrice: { floorPrice: 0.05, priceCurrency: 'ETH' } });
      expect(collection.floorPrice?.marketplace).toBeUndefined();
      await expect(alchemy.nft.getCollectionMetadata('no-such-collection')).rejects.toThrow(/^404: .*not_found/);
      await expect(alchemy.nft.getCollectionMetadata('Not A Slug')).rejects.toThrow(/^400: .*collectionSlug/);
    });

    it('getNftsForContract pages every collection by token id; its iterator runs to the end; a pageKey of another contract is 400', async () => {
      const alchemy = sdk();
      for (const collection of ['relics', 'materials', 'punks'] as const) {
        const expected = [...holders(collection).keys()].sort(byTokenId);
        const seen: string[] = [];
        let pageKey: string | undefined;
        do {
          const page = await alchemy.nft.getNftsForContract(WORLD_ADDRESSES[collection], { pageSize: 2, ...(pageKey && { pageKey }) });
          expect(page.nfts.length).toBeLessThanOrEqual(2);
          seen.push(...page.nfts.map((nft) => nft.tokenId));
          pageKey = page.pageKey;
        } while (pageKey);
        expect(seen, collection).toEqual(expected);
        const iterated: string[] = [];
        for await (const nft of alchemy.nft.getNftsForContractIterator(WORLD_ADDRESSES[collection], { omitMetadata: true })) iterated.push(nft.tokenId);
        expect(iterated, collection).toEqual(expected);
      }
      const airdropped: string[] = [];
      for await (const nft of alchemy.nft.getNftsForContractIterator(airdrop)) airdropped.push(nft.tokenId);
      expect(airdropped.length).toBe(AIRDROP_SIZE);

      const first = await alchemy.nft.getNftsForContract(relics, { pageSize: 1 });
      expect(first.nfts[0]).toMatchObject({ tokenId: [...holders('relics').keys()].sort(byTokenId)[0], tokenType: 'ERC721' });
      await expect(alchemy.nft.getNftsForContract(materials, { pageKey: first.pageKey! })).rejects.toThrow(/^400: .*pageKey/);
      await expect(alchemy.nft.getNftsForContract(randomAddress())).rejects.toThrow(/^404: /);
    });

    it('getOwnersForContract lists the owners, with their token balances, paged, with a count', async () => {
      const alchemy = sdk();
      for (const collection of ['relics', 'materials', 'punks'] as const) {
        const answer = await alchemy.nft.getOwnersForContract(WORLD_ADDRESSES[collection]);
        expect(answer.owners, collection).toEqual(ownersOf(collection));
        expect(answer.pageKey).toBeUndefined();
      }
      const balances = await alchemy.nft.getOwnersForContract(materials, { withTokenBalances: true });
      const expected = ownersOf('materials').map((owner) => ({
        ownerAddress: owner,
        tokenBalances: [...holders('materials')]
          .filter(([, owners]) => owners.has(owner))
          .map(([tokenId, owners]) => ({ tokenId, balance: String(owners.get(owner)) }))
          .sort((a, b) => byTokenId(a.tokenId, b.tokenId)),
      }));
      expect(balances.owners).toEqual(expected);
      const counted = await fetch(`${nodeUrl}/${prefix}/${key}/getOwnersForContract?contractAddress=${airdrop}&includeCount=true`);
      expect(((await counted.json()) as { totalCount: number }).totalCount).toBe(AIRDROP_SIZE);
      await expect(alchemy.nft.getOwnersForContract(relics, { block: '0x10' })).rejects.toThrow(/^400: .*block/);
    });

    it('getOwnersForNft names the owners of an ERC-721, an ERC-1155 and a legacy token; a token nobody holds has none', async () => {
      const alchemy = sdk();
      for (const [collection, tokenId] of [
        ['relics', '4'],
        ['materials', '1'],
        ['punks', '2'],
      ] as const) {
        const answer = await alchemy.nft.getOwnersForNft(WORLD_ADDRESSES[collection], tokenId);
        expect(answer.owners, `${collection} ${tokenId}`).toEqual([...holders(collection).get(tokenId)!.keys()].sort(byLowercase));
        expect(answer.pageKey).toBeNull();
      }
      expect((await alchemy.nft.getOwnersForNft(relics, '999999')).owners).toEqual([]);
      await expect(alchemy.nft.getOwnersForNft(randomAddress(), '1')).rejects.toThrow(/^404: /);
    });

    it('getContractsForOwner lists the collections the demo wallet holds, with counts, spam verdicts and a display token', async () => {
      const alchemy = sdk();
      const answer = await alchemy.nft.getContractsForOwner(DEMO_WALLET);
      const expected = (['relics', 'materials', 'punks', 'airdrop'] as const)
        .map((collection) => {
          const held = [...holders(collection)].filter(([, owners]) => owners.has(DEMO_WALLET));
          return {
            address: WORLD_ADDRESSES[collection],
            numDistinctTokensOwned: String(held.length),
            totalBalance: String(held.reduce((sum, [, owners]) => sum + owners.get(DEMO_WALLET)!, 0n)),
            isSpam: collection === 'airdrop',
            displayTokenId: held.map(([tokenId]) => tokenId).sort(byTokenId)[0],
          };
        })
        .filter((contract) => contract.numDistinctTokensOwned !== '0')
        .sort((a, b) => byLowercase(a.address, b.address));
      expect(
        answer.contracts.map((contract) => ({
          address: contract.address,
          numDistinctTokensOwned: contract.numDistinctTokensOwned,
          totalBalance: contract.totalBalance,
          isSpam: contract.isSpam,
          displayTokenId: contract.displayNft.tokenId,
        })),
      ).toEqual(expected);
      expect(answer.totalCount).toBe(expected.length);
      const relic = answer.contracts.find((contract) => contract.address === relics)!;
      expect(relic).toMatchObject({ name: 'Crucible Relics', tokenType: 'ERC721', displayNft: { name: expect.any(String) } });
      expect(relic.image.cachedUrl).toMatch(/\/nft-media\//);
      const unspammed = await alchemy.nft.getContractsForOwner(DEMO_WALLET, { excludeFilters: [NftFilters.SPAM], pageSize: 1 });
      expect(unspammed.contracts).toHaveLength(1);
      expect(unspammed.totalCount).toBe(expected.length - 1);
      const next = await alchemy.nft.getContractsForOwner(DEMO_WALLET, { excludeFilters: [NftFilters.SPAM], pageSize: 1, pageKey: unspammed.pageKey! });
      expect(next.contracts[0]!.address).toBe(expected.filter((contract) => !contract.isSpam)[1]!.address);
      await expect(alchemy.nft.getContractsForOwner(WORLD_HOLDERS.ada, { pageKey: unspammed.pageKey! })).rejects.toThrow(/^400: .*pageKey/);
    });

    it('isSpamContract, getSpamContracts and isAirdropNft follow the spam rules: the mass airdrop only', async () => {
      const alchemy = sdk();
      expect(await alchemy.nft.isSpamContract(airdrop)).toEqual({ isSpamContract: true });
      expect(await alchemy.nft.isSpamContract(relics)).toEqual({ isSpamContract: false });
      expect(await alchemy.nft.getSpamContracts()).toEqual({ contractAddresses: [airdrop] });
      expect(await alchemy.nft.isAirdropNft(airdrop, '1')).toEqual({ isAirdrop: true });
      expect(await alchemy.nft.isAirdropNft(relics, '1')).toEqual({ isAirdrop: false });
      await expect(alchemy.nft.isAirdropNft(relics, '999999')).rejects.toThrow(/^404: /);
    });

    it('reportSpam is recorded once per reporter for the operator, and changes no verdict', async () => {
      const alchemy = sdk();
      const before = (await listSpamReports(database.db)).find((report) => report.contract === lower(punks));
      // The SDK does not wait for the answer: the report is looked for until it is there.
      await alchemy.nft.reportSpam(punks);
      await vi.waitFor(
        async () => {
          const report = (await listSpamReports(database.db)).find((entry) => entry.contract === lower(punks));
          expect(report?.reports).toBe((before?.reports ?? 0) + 1);
          expect(report?.reporters).toBe(1);
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(await alchemy.nft.isSpamContract(punks)).toEqual({ isSpamContract: false });
    });

    it('summarizeNftAttributes counts the traits of the stored documents and computeRarity gives their prevalence', async () => {
      const alchemy = sdk();
      const documents = (await alchemy.nft.getNftsForContract(relics)).nfts.map(
        (nft) => nft.raw.metadata as { attributes?: Array<{ trait_type: string; value: unknown }> },
      );
      const counts = new Map<string, number>();
      for (const document of documents)
        for (const { trait_type, value } of document.attributes ?? []) counts.set(`${trait_type}=${value}`, (counts.get(`${trait_type}=${value}`) ?? 0) + 1);
      expect(counts.size).toBeGreaterThan(0);
      const summary = await alchemy.nft.summarizeNftAttributes(relics);
      expect(summary.totalSupply).toBe(String(documents.length));
      expect(summary.contractAddress).toBe(relics);
      const summarized = new Map(
        Object.entries(summary.summary).flatMap(([trait, values]) => Object.entries(values).map(([value, count]) => [`${trait}=${value}`, count])),
      );
      expect(summarized).toEqual(counts);
      const rarity = await alchemy.nft.computeRarity(relics, '1');
      const relic1 = (await alchemy.nft.getNftMetadata(relics, '1')).raw.metadata as { attributes: Array<{ trait_type: string; value: unknown }> };
      expect(rarity.rarities).toEqual(
        relic1.attributes.map(({ trait_type, value }) => ({
          traitType: trait_type,
          value: String(value),
          prevalence: counts.get(`${trait_type}=${value}`)! / documents.length,
        })),
      );
      await expect(alchemy.nft.summarizeNftAttributes(randomAddress())).rejects.toThrow(/^404: /);
    });

    it('refreshNftMetadata fetches a token again and says so; refreshContract queues the collection to the worker, which fetches it again', async () => {
      const alchemy = sdk();
      expect(await alchemy.nft.refreshNftMetadata(materials, '3')).toBe(true);
      const before = new Map((await alchemy.nft.getNftsForContract(materials)).nfts.map((nft) => [nft.tokenId, Date.parse(nft.timeLastUpdated)]));
      const queued = await alchemy.nft.refreshContract(materials);
      expect(queued).toMatchObject({ contractAddress: materials, refreshState: expect.stringMatching(/^(queued|already_queued|in_progress)$/) });
      await vi.waitFor(
        async () => {
          for (const nft of (await alchemy.nft.getNftsForContract(materials)).nfts)
            expect(Date.parse(nft.timeLastUpdated), nft.tokenId).toBeGreaterThan(before.get(nft.tokenId)!);
        },
        { timeout: 60_000, interval: 250 },
      );
      await expect(alchemy.nft.refreshContract(randomAddress())).resolves.toMatchObject({ refreshState: 'does_not_exist' });
    });
  });

  it('takes a url with a trailing slash, and answers JSON-RPC at {node_url}/nft/v3/<key> as at /v2/<key>', async () => {
    const slashed = new Alchemy({ url: `${nodeUrl}/nft/v3/${key}/`, maxRetries: 0 });
    expect((await slashed.nft.getContractMetadata(relics)).name).toBe('Crucible Relics');
    const v3 = new Alchemy({ url: `${nodeUrl}/nft/v3/${key}`, maxRetries: 0 });
    const v2 = new Alchemy({ url: `${nodeUrl}/v2/${key}`, maxRetries: 0 });
    const [atV3, atV2] = await Promise.all([v3.core.getCode(relics), v2.core.getCode(relics)]);
    expect(atV3).toMatch(/^0x[0-9a-f]{100,}$/);
    expect(atV3).toBe(atV2);
  });

  describe('REST methods alchemy-sdk does not wrap', () => {
    const get = async (path: string) => {
      const response = await fetch(`${nodeUrl}${path}`);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    it('isHolderOfContract and getNFTsForCollection (by slug or contract) answer under both prefixes', async () => {
      for (const prefix of ['v2', 'nft/v3']) {
        expect((await get(`/${prefix}/${key}/isHolderOfContract?wallet=${DEMO_WALLET}&contractAddress=${relics}`)).body).toEqual({ isHolderOfContract: true });
        expect((await get(`/${prefix}/${key}/isHolderOfContract?wallet=${randomAddress()}&contractAddress=${relics}`)).body).toEqual({
          isHolderOfContract: false,
        });
        const bySlug = await get(`/${prefix}/${key}/getNFTsForCollection?collectionSlug=crucible-materials&withMetadata=false`);
        const byContract = await get(`/${prefix}/${key}/getNFTsForCollection?contractAddress=${materials}&withMetadata=false`);
        expect(bySlug).toEqual(byContract);
        expect((bySlug.body.nfts as Array<{ tokenId: string }>).map((nft) => nft.tokenId)).toEqual([...holders('materials').keys()].sort(byTokenId));
        expect((await get(`/${prefix}/${key}/getNFTsForCollection?collectionSlug=no-such-thing`)).status).toBe(404);
        expect((await get(`/${prefix}/${key}/getNFTsForCollection?collectionSlug=crucible-relics&contractAddress=${relics}`)).status).toBe(400);
      }
    });

    it('getNFTMetadataBatch and refreshNftMetadata are POSTs; refreshNftMetadata queues a token to the worker', async () => {
      const post = (path: string, body: unknown) =>
        fetch(`${nodeUrl}/nft/v3/${key}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const queued = await post('refreshNftMetadata', { contractAddress: relics, tokenId: '0x2' });
      expect(await queued.json()).toEqual({ contractAddress: relics, tokenId: '2', refreshState: 'queued' });
      expect((await post('refreshNftMetadata', { contractAddress: relics, tokenId: '999999' })).status).toBe(404);
      expect((await post('getNFTMetadataBatch', { tokens: [] })).status).toBe(400);
      expect((await fetch(`${nodeUrl}/v2/${key}/getNFTMetadataBatch`)).status).toBe(405);
    });
  });

  it('the operator lists the spam reports with npx crucible nfts spam-reports', async () => {
    const env = databaseEnv.engine === 'postgres' ? { DATABASE_URL: databaseEnv.url, APP_KEY_SECRET } : { DATABASE_PATH: site.databasePath };
    const { stdout, code } = await new Promise<{ stdout: string; code: number | null }>((resolve) => {
      const child = execFile(process.execPath, ['scripts/crucible.ts', 'nfts', 'spam-reports', '--network', site.network, '--json'], {
        env: { ...process.env, ...env },
      });
      let out = '';
      child.stdout!.on('data', (chunk: string) => (out += chunk));
      child.on('exit', (exitCode) => resolve({ stdout: out, code: exitCode }));
    });
    expect(code).toBe(0);
    const { reports } = JSON.parse(stdout) as { reports: Array<{ contract: string; reporters: number; reports: number; latestReporters: string[] }> };
    // Both prefixes' tests reported the punks with the same app: one reporter, two reports.
    expect(reports).toEqual([
      expect.objectContaining({ network: site.network, contract: lower(punks), reporters: 1, reports: 2, latestReporters: [expect.stringMatching(/^app:/)] }),
    ]);
  });
});
