import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPublicClient, createWalletClient, http, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS } from '../../../src/chain/world/artifacts.ts';
import { documentName } from '../../support/world-nfts.ts';
import { startWorldSite, type WorldSite } from '../../support/world-site.ts';

// The drive-by attack on a developer running `npm start` (local mode, every setting at its default):
// any page they visit can call the node gateway with the `demo` key, deploy an NFT signed with one
// of anvil's published keys whose tokenURI names a loopback service, and read what the server
// fetched back through getNFTMetadata (CORS *). The metadata fetcher may reach the site's own
// origin (the world's hosted documents) and public addresses, nothing else on this machine.

/** Anvil's account 1: its key is printed by every anvil and published everywhere. */
const ANVIL_ACCOUNT_1_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const SECRET = 'LOOPBACK-ONLY-SECRET';

let site: WorldSite;
let secret: { server: Server; origin: string; seen: string[] };

beforeAll(async () => {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    seen.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: SECRET, description: SECRET }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  secret = { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
  site = await startWorldSite();
});

afterAll(async () => {
  await site?.stop();
  secret?.server.closeAllConnections();
  await new Promise((resolve) => secret?.server.close(resolve));
});

describe('the NFT metadata fetcher in local mode', () => {
  it("refuses a token URI on another loopback service, and fetches one on the site's own origin", async () => {
    const rpc = http(`${site.origin}/node/${site.network}/v2/demo`);
    const account = privateKeyToAccount(ANVIL_ACCOUNT_1_KEY);
    const wallet = createWalletClient({ account, transport: rpc });
    const chain = createPublicClient({ transport: rpc });
    const { abi, bytecode } = ARTIFACTS.RelicCollection;
    const mined = async (hash: Hex) => expect((await chain.waitForTransactionReceipt({ hash })).status).toBe('success');

    const deployed = await chain.waitForTransactionReceipt({
      hash: await wallet.deployContract({ abi, bytecode, args: ['Drive-by', 'DRV', account.address], chain: null }),
    });
    const contract = deployed.contractAddress as Address;
    await mined(await wallet.writeContract({ address: contract, abi, functionName: 'mint', args: [account.address, [1n]], chain: null }));
    const setBase = async (base: string) =>
      mined(await wallet.writeContract({ address: contract, abi, functionName: 'setBaseURI', args: [base], chain: null }));
    const metadata = async () => {
      const response = await fetch(`${site.origin}/node/${site.network}/nft/v3/demo/getNFTMetadata?contractAddress=${contract}&tokenId=1&refreshCache=true`, {
        headers: { origin: 'https://drive-by.example' },
      });
      const text = await response.text();
      expect(response.status, text).toBe(200);
      return { text, body: JSON.parse(text) as { name: string | null; tokenUri: string | null; raw: { error: string | null } } };
    };

    await setBase(`${secret.origin}/`);
    const refused = await metadata();
    expect(refused.text).not.toContain(SECRET);
    expect(refused.body).toMatchObject({ name: null, tokenUri: `${secret.origin}/1.json`, raw: { error: 'blocked address 127.0.0.1' } });
    expect(secret.seen).toEqual([]);

    await setBase(`${site.origin}/world/nft/relics/`);
    const hosted = await metadata();
    expect(hosted.body).toMatchObject({ name: await documentName('relics/1.json'), tokenUri: `${site.origin}/world/nft/relics/1.json`, raw: { error: null } });
  });
});
