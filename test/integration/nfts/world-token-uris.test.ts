import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployWorld } from '../../../src/chain/world/deploy.ts';
import { worldContract } from '../../../src/chain/world/manifest.ts';
import { NON_PUBLIC_ADDRESSES } from '../../../src/net/blocked-addresses.ts';
import { substituteTokenId } from '../../../src/chain/erc1155-uri.ts';
import { loadUri, type LoadUriOptions } from '../../../src/nfts/load-uri.ts';
import { parseMetadataDocument, type MetadataDocument } from '../../../src/nfts/metadata-document.ts';
import { startTestAnvil, type TestAnvil } from '../../support/anvil.ts';
import { serveWorldFiles, WORLD_CID } from './world-files.ts';

// Token URIs read from the local world deployed on anvil, its hosted collections pointed at a
// server of public/world/nft/, followed to their documents and images as the metadata worker
// will: the relics' hosted and on-chain (data:) URIs, the ERC-1155 {id} template, the airdrop's
// shared document; and the same documents through an IPFS gateway.

let anvil: TestAnvil;
let files: Awaited<ReturnType<typeof serveWorldFiles>>;
let options: LoadUriOptions;

beforeAll(async () => {
  files = await serveWorldFiles();
  anvil = await startTestAnvil({ chainId: 7357001 });
  await deployWorld(anvil.rpcUrl, { siteOrigin: files.origin });
  options = {
    gateways: { ipfs: `${files.origin}/ipfs/`, arweave: 'https://arweave.example/' },
    timeoutMs: 10_000,
    maxBytes: 1024 * 1024,
    blockedAddresses: null,
  };
});

afterAll(async () => {
  await anvil?.stop();
  await files?.close();
});

const read = (id: 'relics' | 'materials' | 'airdrop', functionName: 'tokenURI' | 'uri', tokenId: bigint) => {
  const contract = worldContract(id);
  return anvil.client.readContract({ address: contract.address, abi: contract.artifact.abi, functionName, args: [tokenId] }) as Promise<string>;
};

/** The document behind a token URI, and the image it names, loaded. */
async function follow(tokenUri: string) {
  const loaded = await loadUri(tokenUri, options);
  if (!loaded.ok) throw new Error(`document: ${loaded.error.reason}`);
  const document = parseMetadataDocument(loaded.bytes, loaded.baseUri);
  if (!document.ok) throw new Error(`document: ${document.error.reason}`);
  const image = await loadUri(document.image!, options);
  if (!image.ok) throw new Error(`image: ${image.error.reason}`);
  return { document, image };
}

const sameDocument = async (document: MetadataDocument, relative: string) => expect(document.raw).toEqual(JSON.parse((await files.file(relative)).toString()));

describe('the local world’s token URIs', () => {
  it('a hosted relic: document and relative image fetched from the site', async () => {
    const tokenUri = await read('relics', 'tokenURI', 1n);
    expect(tokenUri).toBe(`${files.origin}/world/nft/relics/1.json`);
    const { document, image } = await follow(tokenUri);
    await sameDocument(document, 'relics/1.json');
    expect(document).toMatchObject({ name: 'Crucible Relics #1', image: `${files.origin}/world/nft/relics/1.svg` });
    expect(image.contentType).toBe('image/svg+xml');
    expect(Buffer.from(image.bytes)).toEqual(await files.file('relics/1.svg'));
  });

  it('an on-chain relic: a data: JSON document whose image is a data: SVG, read without a request', async () => {
    files.seen.length = 0;
    const tokenUri = await read('relics', 'tokenURI', 100n);
    expect(tokenUri.startsWith('data:application/json;base64,')).toBe(true);
    const { document, image } = await follow(tokenUri);
    expect(document).toMatchObject({ name: 'Crucible Relics #100', attributes: [{ trait_type: 'Storage', value: 'on-chain' }] });
    expect(document.image!.startsWith('data:image/svg+xml;base64,')).toBe(true);
    expect(image.contentType).toBe('image/svg+xml');
    expect(new TextDecoder().decode(image.bytes)).toMatch(/^<svg xmlns='http:\/\/www\.w3\.org\/2000\/svg'.*>100<\/text><\/svg>$/);
    expect(files.seen).toEqual([]);
  });

  it('the ERC-1155 materials: uri(id) is a template, {id} substituted', async () => {
    const template = await read('materials', 'uri', 2n);
    expect(template).toBe(`${files.origin}/world/nft/materials/{id}.json`);
    const { document, image } = await follow(substituteTokenId(template, 2n));
    await sameDocument(document, `materials/${'0'.repeat(63)}2.json`);
    expect(Buffer.from(image.bytes)).toEqual(await files.file(new URL(document.image!).pathname.replace('/world/nft/', '')));
  });

  it('the airdrop: every token shares one document', async () => {
    const { document } = await follow(await read('airdrop', 'tokenURI', 1n));
    await sameDocument(document, 'airdrop/pass.json');
  });

  it('in deny mode, the site on loopback is refused with the reason raw.error will carry', async () => {
    const loaded = await loadUri(await read('relics', 'tokenURI', 2n), { ...options, blockedAddresses: NON_PUBLIC_ADDRESSES });
    expect(loaded).toEqual({ ok: false, error: { code: 'blocked_address', reason: 'blocked address 127.0.0.1' } });
    // A data: URI needs no connection, so deny mode reads it all the same.
    expect((await loadUri(await read('relics', 'tokenURI', 101n), { ...options, blockedAddresses: NON_PUBLIC_ADDRESSES })).ok).toBe(true);
  });

  it('the size cap holds for data: URIs too', async () => {
    const tokenUri = await read('relics', 'tokenURI', 102n);
    expect(await loadUri(tokenUri, { ...options, maxBytes: 64 })).toEqual({ ok: false, error: { code: 'too_large', reason: 'too large' } });
  });
});

describe('ipfs:// through the configured gateway', () => {
  it('fetches the document from the gateway and its relative image as ipfs:// through it too', async () => {
    files.seen.length = 0;
    const { document, image } = await follow(`ipfs://${WORLD_CID}/relics/3.json`);
    await sameDocument(document, 'relics/3.json');
    expect(document.image).toBe(`ipfs://${WORLD_CID}/relics/3.svg`);
    expect(Buffer.from(image.bytes)).toEqual(await files.file('relics/3.svg'));
    expect(files.seen).toEqual([`/ipfs/${WORLD_CID}/relics/3.json`, `/ipfs/${WORLD_CID}/relics/3.svg`]);
    expect(await loadUri(`ipfs://ipfs/${WORLD_CID}/relics/404.json`, options)).toEqual({ ok: false, error: { code: 'http_status', reason: 'HTTP 404' } });
  });
});
