import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Alchemy, NftFilters } from 'alchemy-sdk';
import { getAddress, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_WALLET, WORLD_HOLDERS } from '../../../../src/chain/world/actors.ts';
import { worldHoldings } from '../../../../src/chain/world/history.ts';
import { WORLD_ADDRESSES } from '../../../../src/chain/world/manifest.ts';
import { nftOperations } from '../../../../src/nfts/api/operations.ts';
import { createResponseValidator, type ResponseValidator } from '../../../support/openapi-validator.ts';
import { randomAddress } from '../../../support/anvil.ts';
import { databaseEngines } from '../../../support/postgres.ts';
import { NETWORK, startNftNode, type NftNode } from './nft-node.ts';

const computeUnitsOf = (operationId: string) => nftOperations.find((operation) => operation.operationId === operationId)!.computeUnits;

// The NFT endpoints (docs/nft-data.md#endpoints, docs/nft-data.md#getnfts-and-getnftsforowner) over HTTP against the local world indexed on both
// engines: every parameter and error path, paging, the world's holdings, the answers validated
// against the node's own OpenAPI document, and alchemy-sdk 3.6.5 pointed at {node_url}/nft/v3/<key>.

interface OwnedNft {
  contract: { address: string; name: string | null; isSpam: boolean | null; spamClassifications: string[]; openSeaMetadata: unknown };
  contractAddress?: string;
  tokenId: string;
  tokenType: string;
  balance: string;
  name?: string | null;
  tokenUri?: string | null;
  image?: { originalUrl: string | null };
  raw?: { tokenUri: string | null; metadata: Record<string, unknown>; error: string | null };
  mint?: { mintAddress: string | null; blockNumber: number | null; timestamp: string | null; transactionHash: string | null };
  acquiredAt?: { blockNumber: number | null; blockTimestamp: string | null };
  timeLastUpdated?: string | null;
}
interface OwnedNfts {
  ownedNfts: OwnedNft[];
  totalCount: number;
  pageKey: string | null;
  validAt: { blockNumber: number; blockHash: string; blockTimestamp: string };
}
interface ErrorBody {
  error: { code: string; message: string; hint: string; status: number; documentation_url: string };
}

/** What the world's history leaves the demo wallet: `contract:tokenId:balance`. */
function expectedHoldings(owner: Address): string[] {
  const held = worldHoldings().get(getAddress(owner))!;
  return [
    ...Object.entries(held.items).flatMap(([collection, ids]) => ids.map((id) => `${WORLD_ADDRESSES[collection as 'relics']}:${id}:1`)),
    ...[...held.materials].filter(([, balance]) => balance > 0n).map(([id, balance]) => `${WORLD_ADDRESSES.materials}:${id}:${balance}`),
  ].sort();
}
const entryOf = (nft: OwnedNft) => `${nft.contract.address}:${nft.tokenId}:${nft.balance}`;

describe.each(databaseEngines())('NFT endpoints on $name', (engine) => {
  let node: NftNode;
  let validator: ResponseValidator;
  const keys = { active: '', disabled: '', otherNetwork: '', domains: '', slow: '' };

  beforeAll(async () => {
    node = await startNftNode(engine);
    keys.active = (await node.apps.create({ name: 'nft active' })).key;
    const disabled = await node.apps.create({ name: 'nft disabled' });
    await node.apps.setState(disabled.app.id, 'disabled');
    keys.disabled = disabled.key;
    keys.otherNetwork = (await node.apps.create({ name: 'nft elsewhere', allowedNetworks: ['ethereum-sepolia'] })).key;
    keys.domains = (await node.apps.create({ name: 'nft domains', allowedDomains: ['example.com'] })).key;
    keys.slow = (await node.apps.create({ name: 'nft slow', computeUnitsPerSecond: 10 })).key;
    validator = createResponseValidator(await (await fetch(`${node.nodeUrl}/openapi.json`)).json());
  });

  afterAll(async () => {
    await node?.stop();
  });

  /** GET under {node_url}, the answer checked against the node's OpenAPI document. */
  async function get<T>(path: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: T }> {
    const response = await fetch(`${node.nodeUrl}${path}`, init);
    const text = await response.text();
    const body = text ? JSON.parse(text) : undefined;
    const method = init.method ?? 'GET';
    if (method === 'GET') {
      const checked = validator.check(method, path.split('?')[0]!, response.status, response.headers.get('content-type'), body);
      expect(checked.errors, `${path} → ${response.status}`).toEqual([]);
    }
    return { status: response.status, headers: response.headers, body: body as T };
  }
  const owned = (query: string, key = 'demo') => get<OwnedNfts>(`/v2/${key}/getNFTs?${query}`);
  const expectError = (answer: { status: number; body: ErrorBody }, status: number, code: string) => {
    expect({ status: answer.status, code: answer.body.error.code }, answer.body.error.message).toEqual({ status, code });
    expect(answer.body.error.message).toMatch(/\S/);
    expect(answer.body.error.documentation_url).toBe(`${node.nodeUrl}/openapi.json`);
    return answer.body.error;
  };
  const failure = async (path: string, status: number, code: string, init: RequestInit = {}) => expectError(await get<ErrorBody>(path, init), status, code);
  /**
   * GETs until an answer is not a 200 (at most `max` calls): the statuses, that answer, and how long
   * the calls took, since a token bucket refills with time and a slow machine gets more served.
   */
  const untilRefused = async (path: string, init: RequestInit = {}, max = 200) => {
    const started = Date.now();
    const statuses: number[] = [];
    while (statuses.length < max) {
      const answer = await get<ErrorBody>(path, init);
      statuses.push(answer.status);
      if (answer.status !== 200) return { statuses, refused: answer, elapsedMs: Date.now() - started };
    }
    throw new Error(`${max} calls to ${path} were all served`);
  };

  describe('getNFTs / getNFTsForOwner', () => {
    it("lists exactly the demo wallet's NFTs of the world's history, with totalCount and validAt at the indexed head", async () => {
      const { status, body } = await owned(`owner=${DEMO_WALLET}`);
      expect(status).toBe(200);
      const expected = expectedHoldings(DEMO_WALLET);
      expect(body.ownedNfts.map(entryOf).sort()).toEqual(expected);
      expect(body.totalCount).toBe(expected.length);
      expect(body.pageKey).toBeNull();
      const head = await node.anvil.client.getBlock({ blockTag: 'latest' });
      expect(body.validAt).toEqual({
        blockNumber: Number(head.number),
        blockHash: head.hash,
        blockTimestamp: new Date(Number(head.timestamp) * 1000).toISOString(),
      });
      // The same handler under the SDK's path, for an owner written in lowercase.
      const v3 = await get<OwnedNfts>(`/nft/v3/demo/getNFTsForOwner?owner=${DEMO_WALLET.toLowerCase()}`);
      expect(v3.body).toEqual(body);
    });

    it('fills every field of 2.11 from the index, the metadata and the contract facts', async () => {
      const { body } = await owned(`owner=${DEMO_WALLET}&contractAddresses[]=${WORLD_ADDRESSES.relics}&contractAddresses[]=${WORLD_ADDRESSES.punks}`);
      const relic1 = body.ownedNfts.find((nft) => nft.contract.address === WORLD_ADDRESSES.relics && nft.tokenId === '1')!;
      expect(relic1).toMatchObject({
        tokenType: 'ERC721',
        balance: '1',
        name: expect.any(String),
        contract: { name: 'Crucible Relics', isSpam: false, spamClassifications: [] },
        raw: { error: null, metadata: { name: relic1.name } },
        mint: { mintAddress: DEMO_WALLET, blockNumber: expect.any(Number), transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
      });
      expect(relic1.tokenUri).toMatch(/\/world\/nft\/relics\/1\.json$/);
      expect(relic1.image!.originalUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/world\/nft\/relics\//);
      expect(relic1.acquiredAt).toEqual({ blockNumber: relic1.mint!.blockNumber, blockTimestamp: relic1.mint!.timestamp });
      expect(relic1.timeLastUpdated).toMatch(/^\d{4}-\d\d-\d\dT/);
      // Relic 4 was minted to ada and passed to the demo wallet later: acquired after its mint.
      const relic4 = body.ownedNfts.find((nft) => nft.contract.address === WORLD_ADDRESSES.relics && nft.tokenId === '4')!;
      expect(relic4.mint!.mintAddress).toBe(WORLD_HOLDERS.ada);
      expect(relic4.acquiredAt!.blockNumber).toBeGreaterThan(relic4.mint!.blockNumber!);
      // The legacy punks have no tokenURI: the record says why.
      const punk = body.ownedNfts.find((nft) => nft.contract.address === WORLD_ADDRESSES.punks)!;
      expect(punk).toMatchObject({ tokenType: 'NO_SUPPORTED_NFT_STANDARD', tokenUri: null, raw: { error: 'the contract has no tokenURI', metadata: {} } });
      const materials = await owned(`owner=${DEMO_WALLET}&contractAddresses=${WORLD_ADDRESSES.materials}`);
      const material2 = materials.body.ownedNfts.find((nft) => nft.tokenId === '2')!;
      expect(material2).toMatchObject({ tokenType: 'ERC1155', balance: '265', raw: { error: null } });
      expect(material2.tokenUri).toMatch(/0{63}2\.json$/);
    });

    it('pages through the wallet once per NFT, in both orders, and pageKey does not cross orders', async () => {
      for (const order of ['', '&orderBy=transferTime']) {
        const seen: string[] = [];
        let pageKey: string | null = null;
        let pages = 0;
        do {
          const page: { body: OwnedNfts } = await owned(`owner=${DEMO_WALLET}&pageSize=3${order}${pageKey ? `&pageKey=${pageKey}` : ''}`);
          expect(page.body.ownedNfts.length).toBeLessThanOrEqual(3);
          expect(page.body.totalCount).toBe(expectedHoldings(DEMO_WALLET).length);
          seen.push(...page.body.ownedNfts.map(entryOf));
          pageKey = page.body.pageKey;
          if (pageKey && order === '') await failure(`/v2/demo/getNFTs?owner=${DEMO_WALLET}&orderBy=transferTime&pageKey=${pageKey}`, 400, 'bad_request');
          pages++;
        } while (pageKey);
        expect(pages).toBe(Math.ceil(expectedHoldings(DEMO_WALLET).length / 3));
        expect(seen.length).toBe(new Set(seen).size);
        expect(seen.sort()).toEqual(expectedHoldings(DEMO_WALLET));
      }
      // Newest transfer first: the index orders by the transfer that last changed each balance, which for
      // single items is the one that gave it to the owner (acquiredAt); an ERC-1155 balance partly sent on moved later.
      const byTime = (await owned(`owner=${DEMO_WALLET}&orderBy=transferTime`)).body.ownedNfts;
      const items = byTime.filter((nft) => nft.tokenType !== 'ERC1155').map((nft) => nft.acquiredAt!.blockNumber!);
      expect(items).toEqual([...items].sort((a, b) => b - a));
      expect(byTime.map(entryOf).sort()).toEqual(expectedHoldings(DEMO_WALLET));
    });

    it('contractAddresses[] and repeated contractAddresses limit the list and totalCount', async () => {
      const both = [WORLD_ADDRESSES.relics, WORLD_ADDRESSES.materials];
      const bracketed = await owned(`owner=${DEMO_WALLET}&${both.map((address) => `contractAddresses[]=${address}`).join('&')}`);
      const repeated = await owned(`owner=${DEMO_WALLET}&${both.map((address) => `contractAddresses=${address.toLowerCase()}`).join('&')}`);
      const expected = expectedHoldings(DEMO_WALLET).filter((entry) => both.some((address) => entry.startsWith(address)));
      expect(bracketed.body.ownedNfts.map(entryOf).sort()).toEqual(expected);
      expect(bracketed.body.totalCount).toBe(expected.length);
      expect(repeated.body).toEqual(bracketed.body);
    });

    it('withMetadata=false answers the token fields only', async () => {
      const { body } = await owned(`owner=${DEMO_WALLET}&withMetadata=false&pageSize=2`);
      expect(body.ownedNfts).toHaveLength(2);
      for (const nft of body.ownedNfts) {
        expect(Object.keys(nft).sort()).toEqual(['balance', 'contract', 'contractAddress', 'tokenId', 'tokenType']);
        expect(nft.contractAddress).toBe(nft.contract.address);
      }
    });

    it('excludeFilters[]=SPAM and AIRDROPS drop the airdropped collection; includeFilters[] keeps only it', async () => {
      const everything = expectedHoldings(DEMO_WALLET);
      const withoutAirdrop = everything.filter((entry) => !entry.startsWith(WORLD_ADDRESSES.airdrop));
      expect(withoutAirdrop.length).toBeLessThan(everything.length);
      for (const filter of ['SPAM', 'AIRDROPS']) {
        const excluded = await owned(`owner=${DEMO_WALLET}&excludeFilters[]=${filter}`);
        expect(excluded.body.ownedNfts.map(entryOf).sort()).toEqual(withoutAirdrop);
        expect(excluded.body.totalCount).toBe(withoutAirdrop.length);
        const included = await owned(`owner=${DEMO_WALLET}&includeFilters[]=${filter}`);
        expect(included.body.ownedNfts.map(entryOf)).toEqual(everything.filter((entry) => entry.startsWith(WORLD_ADDRESSES.airdrop)));
        expect(included.body.ownedNfts[0]!.contract).toMatchObject({ isSpam: true, spamClassifications: ['MassAirdrop'] });
      }
    });

    it('tokenUriTimeoutInMs=0 answers from the cache alone: an unfetched token says so', async () => {
      const fetchedBefore = node.metadata.fetched.length;
      const { body } = await owned(`owner=${WORLD_HOLDERS.ben}&tokenUriTimeoutInMs=0`);
      expect(node.metadata.fetched.length).toBe(fetchedBefore);
      const unfetched = body.ownedNfts.filter((nft) => nft.timeLastUpdated === null);
      expect(unfetched.length).toBeGreaterThan(0);
      for (const nft of unfetched) expect(nft.raw!.error).toMatch(/not fetched yet/);
    });

    it('an owner without NFTs gets an empty page', async () => {
      const { body } = await owned(`owner=${randomAddress()}`);
      expect(body).toMatchObject({ ownedNfts: [], totalCount: 0, pageKey: null });
    });

    it('refuses bad parameters with 400 naming them, and ignores unknown ones', async () => {
      const base = `/v2/demo/getNFTs?owner=${DEMO_WALLET}`;
      expect((await failure('/v2/demo/getNFTs', 400, 'bad_request')).message).toMatch(/owner is required/);
      expect((await failure('/v2/demo/getNFTs?owner=0x1234', 400, 'bad_request')).message).toMatch(/^owner /);
      expect((await failure(`${base}&pageKey=not-a-key`, 400, 'bad_request')).message).toMatch(/pageKey/);
      expect((await failure(`${base}&pageSize=0`, 400, 'bad_request')).message).toMatch(/pageSize must be at least 1/);
      expect((await failure(`${base}&pageSize=101`, 400, 'bad_request')).message).toMatch(/pageSize must be at most 100/);
      expect((await failure(`${base}&pageSize=ten`, 400, 'bad_request')).message).toMatch(/pageSize/);
      const contracts46 = Array.from({ length: 46 }, () => `contractAddresses[]=${randomAddress()}`).join('&');
      expect((await failure(`${base}&${contracts46}`, 400, 'bad_request')).message).toMatch(/contractAddresses\[\] may hold at most 45/);
      expect((await failure(`${base}&excludeFilters[]=SPAM&includeFilters[]=AIRDROPS`, 400, 'bad_request')).message).toMatch(/together/);
      expect((await failure(`${base}&excludeFilters[]=NSFW`, 400, 'bad_request')).message).toMatch(/SPAM, AIRDROPS/);
      await failure(`${base}&orderBy=name`, 400, 'bad_request');
      await failure(`${base}&withMetadata=maybe`, 400, 'bad_request');
      await failure(`${base}&tokenUriTimeoutInMs=-1`, 400, 'bad_request');
      await failure(`${base}&owner=${DEMO_WALLET}`, 400, 'bad_request');
      expect((await owned(`owner=${DEMO_WALLET}&colour=blue&withMetadata=false`)).status).toBe(200);
      const forty5 = Array.from({ length: 45 }, () => `contractAddresses[]=${randomAddress()}`).join('&');
      expect((await owned(`owner=${DEMO_WALLET}&${forty5}`)).body.totalCount).toBe(0);
    });
  });

  describe('getNFTMetadata and getContractMetadata', () => {
    it("answers a token's metadata by decimal or hex id, under both prefixes", async () => {
      const decimal = await get<OwnedNft>(`/v2/demo/getNFTMetadata?contractAddress=${WORLD_ADDRESSES.relics}&tokenId=100`);
      expect(decimal.status).toBe(200);
      expect(decimal.body).toMatchObject({ tokenId: '100', tokenType: 'ERC721', raw: { error: null }, contract: { address: WORLD_ADDRESSES.relics } });
      expect(decimal.body.tokenUri).toMatch(/^data:/);
      expect(decimal.body).not.toHaveProperty('balance');
      const hex = await get<OwnedNft>(`/nft/v3/demo/getNFTMetadata?contractAddress=${WORLD_ADDRESSES.relics.toLowerCase()}&tokenId=0x64&tokenType=ERC721`);
      expect(hex.body).toEqual(decimal.body);
    });

    it('refreshCache=true fetches the token again; unknown tokens and contracts are 404', async () => {
      const refreshed = (key: string) => node.metadata.fetched.filter((fetched) => fetched === key).length;
      const relic1 = `${NETWORK}:${WORLD_ADDRESSES.relics.toLowerCase()}:1`;
      await get(`/v2/demo/getNFTMetadata?contractAddress=${WORLD_ADDRESSES.relics}&tokenId=1`);
      const before = refreshed(relic1);
      await get(`/v2/demo/getNFTMetadata?contractAddress=${WORLD_ADDRESSES.relics}&tokenId=1`);
      expect(refreshed(relic1)).toBe(before);
      const fresh = await get<OwnedNft>(`/v2/demo/getNFTMetadata?contractAddress=${WORLD_ADDRESSES.relics}&tokenId=1&refreshCache=true`);
      expect(fresh.status).toBe(200);
      expect(refreshed(relic1)).toBe(before + 1);
      await failure(`/v2/demo/getNFTMetadata?contractAddress=${WORLD_ADDRESSES.relics}&tokenId=999999`, 404, 'not_found');
      await failure(`/v2/demo/getNFTMetadata?contractAddress=${randomAddress()}&tokenId=1`, 404, 'not_found');
      await failure(`/v2/demo/getNFTMetadata?contractAddress=${WORLD_ADDRESSES.forge}&tokenId=1`, 404, 'not_found');
      await failure(`/v2/demo/getNFTMetadata?contractAddress=${WORLD_ADDRESSES.relics}`, 400, 'bad_request');
      await failure(`/v2/demo/getNFTMetadata?contractAddress=${WORLD_ADDRESSES.relics}&tokenId=1.5`, 400, 'bad_request');
      await failure(`/nft/v3/demo/getContractMetadata?contractAddress=${randomAddress()}`, 404, 'not_found');
      await failure('/nft/v3/demo/getContractMetadata?contractAddress=relics', 400, 'bad_request');
    });

    it("answers a contract's facts", async () => {
      const { status, body } = await get<OwnedNft['contract']>(`/nft/v3/demo/getContractMetadata?contractAddress=${WORLD_ADDRESSES.materials}`);
      expect(status).toBe(200);
      expect(body).toMatchObject({
        address: WORLD_ADDRESSES.materials,
        name: 'Crucible Materials',
        tokenType: 'ERC1155',
        openSeaMetadata: { collectionSlug: 'materials' },
      });
    });
  });

  describe('keys, limits, metering and HTTP', () => {
    const path = (key: string) => `/v2/${key}/getNFTs?owner=${DEMO_WALLET}&withMetadata=false`;

    it('refuses as JSON-RPC does: 401 bad key, 403 disabled app, other network, other origin; 404 unknown network', async () => {
      expect((await failure(path('not-a-key'), 401, 'unauthorized')).message).toMatch(/Invalid API key/);
      expect((await fetch(`${node.nodeUrl}/nft/v3//getNFTsForOwner?owner=${DEMO_WALLET}`)).status).toBe(401);
      expect((await failure(path(keys.disabled), 403, 'forbidden')).message).toMatch(/disabled/);
      expect((await failure(path(keys.otherNetwork), 403, 'forbidden')).message).toMatch(/not allowed on network/);
      expect((await failure(path(keys.domains), 403, 'forbidden', { headers: { origin: 'https://evil.test' } })).message).toMatch(/origin/);
      expect((await get(path(keys.domains), { headers: { origin: 'https://example.com' } })).status).toBe(200);
      const unknown = await fetch(`${node.origin}/node/no-such-network/v2/demo/getNFTs?owner=${DEMO_WALLET}`);
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as ErrorBody).error.code).toBe('not_found');
      expect((await fetch(`${node.nodeUrl}/nft/v3/demo/getNFTsForOwnerz`)).status).toBe(404);
    });

    it("charges the endpoint's compute units to the app and meters it under the endpoint's name", async () => {
      const before = node.usage.length;
      await get(`/nft/v3/${keys.active}/getNFTsForOwner?owner=${DEMO_WALLET}`);
      await get(`/nft/v3/${keys.active}/getContractMetadata?contractAddress=${WORLD_ADDRESSES.relics}`);
      await failure(`/nft/v3/${keys.active}/getNFTsForOwner?owner=nobody`, 400, 'bad_request');
      const app = await node.apps.findByKey(keys.active);
      expect(node.usage.slice(before)).toEqual([
        { appId: app!.id, network: NETWORK, method: 'getNFTsForOwner', computeUnits: computeUnitsOf('getNFTsForOwner'), errorCode: null },
        { appId: app!.id, network: NETWORK, method: 'getContractMetadata', computeUnits: computeUnitsOf('getContractMetadata'), errorCode: null },
      ]);
    });

    it("429 with Retry-After past the app's rate, and past the demo key's per-IP limit", async () => {
      // 10 CU/s with a bucket of 10 s: one getNFTs (100 CU) empties it, and another fits 10 s later.
      const slow = await untilRefused(path(keys.slow));
      expect(slow.statuses[0]).toBe(200);
      expect(slow.statuses.length - 1).toBeLessThanOrEqual(1 + Math.floor(slow.elapsedMs / 10_000));
      expect(expectError(slow.refused, 429, 'rate_limited').message).toMatch(/compute units per second/);
      expect(Number(slow.refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // The demo key here: 20 at once per client IP, then one a second (nft-node.ts).
      const demo = await untilRefused(path('demo'), { headers: { 'x-test-client-ip': '203.0.113.77' } });
      expect(demo.statuses.slice(0, 20)).toEqual(Array(20).fill(200));
      expect(demo.statuses.length - 1).toBeLessThanOrEqual(20 + Math.floor(demo.elapsedMs / 1_000));
      expectError(demo.refused, 429, 'rate_limited');
      expect(Number(demo.refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // Another client is not affected.
      expect((await get(path('demo'), { headers: { 'x-test-client-ip': '203.0.113.78' } })).status).toBe(200);
    });

    it('answers OPTIONS with CORS, HEAD without a body, other methods with 405', async () => {
      const options = await fetch(`${node.nodeUrl}${path('demo')}`, { method: 'OPTIONS' });
      expect(options.status).toBe(204);
      expect(options.headers.get('access-control-allow-origin')).toBe('*');
      expect(options.headers.get('access-control-allow-methods')).toMatch(/GET/);
      const got = await fetch(`${node.nodeUrl}${path('demo')}`);
      expect(got.headers.get('access-control-allow-origin')).toBe('*');
      const head = await fetch(`${node.nodeUrl}${path('demo')}`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      const post = await fetch(`${node.nodeUrl}${path('demo')}`, { method: 'POST' });
      expect(post.status).toBe(405);
      expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect(((await post.json()) as ErrorBody).error.code).toBe('method_not_allowed');
    });
  });

  describe('alchemy-sdk 3.6.5 with url {node_url}/nft/v3/<key>', () => {
    const sdk = () => new Alchemy({ url: `${node.nodeUrl}/nft/v3/${keys.active}`, maxRetries: 0 });

    it('nft.getNftsForOwner pages through the world’s tokens, by contract and without metadata', async () => {
      const alchemy = sdk();
      const seen: string[] = [];
      let pageKey: string | undefined;
      do {
        const page = await alchemy.nft.getNftsForOwner(DEMO_WALLET, { pageSize: 4, ...(pageKey ? { pageKey } : {}) });
        seen.push(...page.ownedNfts.map((nft) => `${nft.contract.address}:${nft.tokenId}:${nft.balance}`));
        expect(page.totalCount).toBe(expectedHoldings(DEMO_WALLET).length);
        pageKey = page.pageKey;
      } while (pageKey);
      expect(seen.sort()).toEqual(expectedHoldings(DEMO_WALLET));

      const relics = await alchemy.nft.getNftsForOwner(DEMO_WALLET, { contractAddresses: [WORLD_ADDRESSES.relics] });
      const relic1 = relics.ownedNfts.find((nft) => nft.tokenId === '1')!;
      expect(relic1.contract).toMatchObject({ address: WORLD_ADDRESSES.relics, name: 'Crucible Relics', symbol: 'RELIC', tokenType: 'ERC721' });
      expect(relic1.contract.openSeaMetadata.collectionName).toBe('Crucible Relics');
      expect(relic1.name).toEqual(expect.any(String));
      expect(relic1.image.originalUrl).toMatch(/relics/);
      expect(relic1.raw.metadata.name).toBe(relic1.name);
      expect(relic1.mint?.mintAddress).toBe(DEMO_WALLET);
      expect(relics.ownedNfts.map((nft) => nft.tokenId).sort()).toEqual(
        expectedHoldings(DEMO_WALLET)
          .filter((e) => e.startsWith(WORLD_ADDRESSES.relics))
          .map((e) => e.split(':')[1])
          .sort(),
      );

      const bare = await alchemy.nft.getNftsForOwner(DEMO_WALLET, { omitMetadata: true, excludeFilters: [NftFilters.SPAM] });
      expect(bare.ownedNfts.map((nft) => `${nft.contractAddress}:${nft.tokenId}:${nft.balance}`).sort()).toEqual(
        expectedHoldings(DEMO_WALLET).filter((entry) => !entry.startsWith(WORLD_ADDRESSES.airdrop)),
      );
    });

    it('nft.getNftMetadata and nft.getContractMetadata return the world’s token and contract', async () => {
      const alchemy = sdk();
      const material = await alchemy.nft.getNftMetadata(WORLD_ADDRESSES.materials, '2');
      expect(material).toMatchObject({ tokenId: '2', tokenType: 'ERC1155', contract: { address: WORLD_ADDRESSES.materials, name: 'Crucible Materials' } });
      expect(material.name).toEqual(expect.any(String));
      const contract = await alchemy.nft.getContractMetadata(WORLD_ADDRESSES.airdrop);
      expect(contract).toMatchObject({ address: WORLD_ADDRESSES.airdrop, name: 'Drop Pass', symbol: 'DROP', tokenType: 'ERC721' });
      await expect(alchemy.nft.getNftMetadata(WORLD_ADDRESSES.relics, '999999')).rejects.toThrow(/404/);
    });
  });

  // Once, not once per engine: defined in the sqlite block only.
  if (engine.name === 'sqlite')
    it('is described at {node_url}/openapi.json, a document that lints with no errors under @redocly/cli', async () => {
      const response = await fetch(`${node.nodeUrl}/openapi.json`);
      expect(response.status).toBe(200);
      const document = (await response.json()) as { servers: Array<{ url: string }>; paths: Record<string, unknown> };
      expect(document.servers).toEqual([{ url: node.nodeUrl }]);
      // Every REST method of alchemy-sdk 3.6.5's nft namespace (but the marketplace's getFloorPrice and getNFTSales), and getNFTs
      // and isHolderOfContract of the REST API, each under both prefixes.
      const methods = [
        'computeRarity',
        'getCollectionMetadata',
        'getContractMetadata',
        'getContractMetadataBatch',
        'getContractsForOwner',
        'getNFTMetadata',
        'getNFTMetadataBatch',
        'getNFTs',
        'getNFTsForCollection',
        'getNFTsForContract',
        'getNFTsForOwner',
        'getOwnersForContract',
        'getOwnersForNFT',
        'getSpamContracts',
        'isAirdropNFT',
        'isHolderOfContract',
        'isSpamContract',
        'refreshNftMetadata',
        'reingestContract',
        'reportSpam',
        'searchContractMetadata',
        'summarizeNFTAttributes',
      ];
      expect(Object.keys(document.paths).sort()).toEqual(methods.flatMap((method) => [`/nft/v3/{apiKey}/${method}`, `/v2/{apiKey}/${method}`]).sort());
      const scratch = await mkdtemp(join(tmpdir(), 'crucible-nft-openapi-'));
      const file = join(scratch, 'openapi.json');
      await writeFile(file, JSON.stringify(document));
      const cli = join(process.cwd(), 'node_modules/@redocly/cli/bin/cli.js');
      const result = await promisify(execFile)(process.execPath, [cli, 'lint', file, '--config', join(process.cwd(), 'redocly.yaml'), '--format', 'json'], {
        cwd: scratch,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        maxBuffer: 16 * 1024 * 1024,
      }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
      await rm(scratch, { recursive: true, force: true });
      const report = JSON.parse(result.stdout) as { totals: { errors: number }; problems: Array<{ severity: string; message: string }> };
      expect(report.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
      expect(report.totals.errors).toBe(0);
    });
});
