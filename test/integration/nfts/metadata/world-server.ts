import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { deployWorld } from '../../../../src/chain/world/deploy.ts';
import { WORLD_ADDRESSES } from '../../../../src/chain/world/manifest.ts';
import type { NftMetadataStoreOptions } from '../../../../src/nfts/metadata/store.ts';
import type { NftRef } from '../../../../src/nfts/nft-sources.ts';
import { viemTokenChain } from '../../../../src/tokens/viem-chain.ts';
import { startTestAnvil, type TestAnvil } from '../../../support/anvil.ts';
import { serveWorldFiles } from '../world-files.ts';

// The local world's hosted documents and images (public/world/nft/ at /world/nft/, as the site
// serves them), with answers a test may swap for one path (a 404, a document that never comes, an
// image too large, a document changed since), and a count of the requests each path got.

type Answer = (response: ServerResponse) => void;

export const answers = {
  status:
    (code: number): Answer =>
    (response) =>
      response.writeHead(code).end(),
  /** Headers never come. */
  hang: (): Answer => () => {},
  body:
    (bytes: Uint8Array | string, contentType: string): Answer =>
    (response) =>
      response.writeHead(200, { 'content-type': contentType }).end(bytes),
};

async function serveWorld() {
  const files = await serveWorldFiles();
  const overrides = new Map<string, Answer>();
  const requests = new Map<string, number>();
  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    requests.set(path, (requests.get(path) ?? 0) + 1);
    const override = overrides.get(path);
    if (override) return override(response);
    const relative = /^\/world\/nft\/([a-z]+\/[0-9a-z]+\.(json|svg))$/.exec(path);
    const body = relative && (await files.file(relative[1]!).catch(() => null));
    if (!relative || !body) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': relative[2] === 'json' ? 'application/json' : 'image/svg+xml' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    file: files.file,
    /** Answers requests for `path` with `answer` from now on. */
    override: (path: string, answer: Answer) => void overrides.set(path, answer),
    restore: (path: string) => void overrides.delete(path),
    /** Requests for `path` so far. */
    requestsFor: (path: string) => requests.get(path) ?? 0,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await files.close();
    },
  };
}

export const NETWORK = 'crucible-testnet';

/** An NFT of the world's collection `id` on NETWORK. */
export const worldNft = (id: 'relics' | 'materials' | 'airdrop' | 'punks', tokenId: number): NftRef => ({
  network: NETWORK,
  contract: WORLD_ADDRESSES[id],
  tokenId: String(tokenId),
  kind: id === 'materials' ? 'erc1155' : id === 'punks' ? 'legacy' : 'erc721',
});

export interface DeployedWorld {
  anvil: TestAnvil;
  world: Awaited<ReturnType<typeof serveWorld>>;
  /** What a store over this world is given, the site origin and caps aside. */
  storeOptions(): Pick<NftMetadataStoreOptions, 'chainOf'> & { fetch: Omit<NftMetadataStoreOptions['fetch'], 'imageMaxBytes'> };
}

/** The world deployed on a fresh anvil, its files served, for the test file (call at its top level). */
export function deployedWorld(): DeployedWorld {
  const deployed = {} as DeployedWorld;
  beforeAll(async () => {
    deployed.world = await serveWorld();
    deployed.anvil = await startTestAnvil({ chainId: 7357001 });
    await deployWorld(deployed.anvil.rpcUrl, { siteOrigin: deployed.world.origin });
  });
  afterAll(async () => {
    await deployed.anvil?.stop();
    await deployed.world?.close();
  });
  deployed.storeOptions = () => ({
    chainOf: (network) => (network === NETWORK ? viemTokenChain(deployed.anvil.client) : null),
    fetch: {
      gateways: { ipfs: `${deployed.world.origin}/ipfs/`, arweave: 'https://arweave.example/' },
      metadataMaxBytes: 1024 * 1024,
      imageTimeoutMs: 10_000,
      blockedAddresses: null,
    },
  });
  return deployed;
}
