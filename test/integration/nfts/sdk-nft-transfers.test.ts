import { randomBytes } from 'node:crypto';
import { Alchemy, GetTransfersForOwnerTransferType, NftTokenType } from 'alchemy-sdk';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadAppKeySecret } from '../../../src/apps/key-secret.ts';
import { createAppStore } from '../../../src/apps/store.ts';
import { DEMO_WALLET, WORLD_HOLDERS } from '../../../src/chain/world/actors.ts';
import { WORLD_HISTORY } from '../../../src/chain/world/history.ts';
import { WORLD_ADDRESSES } from '../../../src/chain/world/manifest.ts';
import { openDatabase, type Database } from '../../../src/db/open.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { startWorldSite, type WorldSite } from '../../support/world-site.ts';

// alchemy-sdk 3.6.5's NFT transfer helpers against the production server in local mode, on SQLite
// and PostgreSQL, with url `{node_url}/v2/<key>` and `{node_url}/nft/v3/<key>`: getTransfersForOwner,
// getTransfersForContract and getMintedNfts send alchemy_getAssetTransfers (JSON-RPC) to the url and
// then getNFTMetadataBatch for the tokens it names (their ids in hex, the legacy NFT's without a
// tokenType). Expected transfers come from the world's history (src/chain/world/history.ts).

const APP_KEY_SECRET = randomBytes(32).toString('hex');
const { relics, materials, punks } = WORLD_ADDRESSES;
const steps = WORLD_HISTORY.flat();
const relicMintsTo = (owner: string) => steps.flatMap((step) => (step.action === 'relic-mint' && step.to === owner ? step.ids.map(String) : []));
const materialMintsTo = (owner: string) => steps.flatMap((step) => (step.action === 'material-mint' && step.to === owner ? step.ids.map(String) : []));

describe.each(databaseEngines())('alchemy-sdk 3.6.5 NFT transfer helpers through the production server on $name', (engine) => {
  let site: WorldSite;
  let key: string;
  let database: Database;
  let nodeUrl: string;

  beforeAll(async () => {
    const location = await engine.location();
    site = await startWorldSite({
      env: location.engine === 'postgres' ? { DATABASE_URL: location.url, APP_KEY_SECRET } : {},
      prepare: async (databasePath) => {
        const at = location.engine === 'postgres' ? location : ({ engine: 'sqlite', path: databasePath } as const);
        database = await openDatabase(at);
        const keySecret = location.engine === 'postgres' ? Buffer.from(APP_KEY_SECRET, 'hex') : await loadAppKeySecret({ ...at, appKeySecret: null });
        ({ key } = await createAppStore(database, { keySecret, networks: [] }).create({ name: 'sdk nft transfers', computeUnitsPerSecond: 100_000 }));
      },
    });
    nodeUrl = `${site.origin}/node/${site.network}`;
    const sdk = new Alchemy({ url: `${nodeUrl}/v2/${key}`, maxRetries: 0 });
    await vi.waitFor(async () => expect((await sdk.nft.getNftsForContract(relics)).nfts.every((nft) => nft.timeLastUpdated)).toBe(true), {
      timeout: 180_000,
      interval: 500,
    });
  }, 300_000);

  afterAll(async () => {
    await site?.stop();
    await database?.close();
  });

  describe.each(['v2', 'nft/v3'])('with url {node_url}/%s/<key>', (prefix) => {
    const sdk = () => new Alchemy({ url: `${nodeUrl}/${prefix}/${key}`, maxRetries: 0 });

    it("getTransfersForOwner lists the demo wallet's NFT transfers each way, with each token's metadata", async () => {
      const alchemy = sdk();
      const received = await alchemy.nft.getTransfersForOwner(DEMO_WALLET, GetTransfersForOwnerTransferType.TO);
      expect(received.nfts.length).toBeGreaterThan(0);
      for (const nft of received.nfts) expect(getAddress(nft.to!)).toBe(DEMO_WALLET);
      // Relic 4, minted to ada and passed to the demo wallet, with its name from its document.
      const relic4 = received.nfts.find((nft) => nft.contract.address === relics && nft.tokenId === '4')!;
      expect(getAddress(relic4.from)).toBe(WORLD_HOLDERS.ada);
      expect(relic4.name).toEqual(expect.any(String));
      expect(relic4.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
      // The legacy punks come as specialnft, without a tokenType in the SDK's batch.
      expect(received.nfts.some((nft) => nft.contract.address === punks)).toBe(true);

      const sent = await alchemy.nft.getTransfersForOwner(DEMO_WALLET, GetTransfersForOwnerTransferType.FROM, { contractAddresses: [relics] });
      for (const nft of sent.nfts) expect([getAddress(nft.from), nft.contract.address]).toEqual([DEMO_WALLET, relics]);
      expect(sent.nfts.find((nft) => nft.tokenId === '3')?.to && getAddress(sent.nfts.find((nft) => nft.tokenId === '3')!.to!)).toBe(WORLD_HOLDERS.ben);
    });

    it('getMintedNfts lists what was minted to the demo wallet; getTransfersForContract every transfer of a collection', async () => {
      const alchemy = sdk();
      const minted = await alchemy.nft.getMintedNfts(DEMO_WALLET, { contractAddresses: [relics, materials] });
      const mintedIds = (contract: string) => minted.nfts.filter((nft) => nft.contract.address === contract).map((nft) => nft.tokenId);
      expect(mintedIds(relics).sort()).toEqual(relicMintsTo(DEMO_WALLET).sort());
      expect(mintedIds(materials).sort()).toEqual(materialMintsTo(DEMO_WALLET).sort());
      const erc1155 = await alchemy.nft.getMintedNfts(DEMO_WALLET, { tokenType: NftTokenType.ERC1155 });
      expect(erc1155.nfts.every((nft) => nft.contract.address === materials)).toBe(true);

      const transfers = await alchemy.nft.getTransfersForContract(relics);
      expect(transfers.nfts.every((nft) => nft.contract.address === relics)).toBe(true);
      const mintedRelics = steps.flatMap((step) => (step.action === 'relic-mint' ? step.ids.map(String) : []));
      for (const tokenId of mintedRelics)
        expect(
          transfers.nfts.some((nft) => nft.tokenId === tokenId),
          tokenId,
        ).toBe(true);
    });
  });
});
