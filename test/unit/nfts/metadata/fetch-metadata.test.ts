import { describe, expect, it } from 'vitest';
import { fetchMetadata, isPassingFailure } from '../../../../src/nfts/metadata/fetch-metadata.ts';
import type { NftRef } from '../../../../src/nfts/nft-sources.ts';

const load = { gateways: { ipfs: 'https://ipfs.example/ipfs/', arweave: 'https://ar.example/' }, timeoutMs: 1000, maxBytes: 4096, blockedAddresses: null };
const token = (kind: NftRef['kind'], tokenId = '7'): NftRef => ({ network: 'n', contract: '0x00000000000000000000000000000000000000b1', tokenId, kind });
const dataJson = (value: unknown) => `data:application/json;base64,${Buffer.from(JSON.stringify(value)).toString('base64')}`;

describe('fetchMetadata (no request: data: URIs and failures)', () => {
  it('a data: document: raw.metadata as given, its fields, tokenUri as given', async () => {
    const uri = dataJson({ name: 'Seven', description: 'A token.', image: 'ipfs://QmImage/7.png', extra: [1] });
    expect(await fetchMetadata(token('erc721'), { ok: true, uri }, load)).toEqual({
      tokenUri: uri,
      rawTokenUri: uri,
      metadata: { name: 'Seven', description: 'A token.', image: 'ipfs://QmImage/7.png', extra: [1] },
      error: null,
      errorCode: null,
      name: 'Seven',
      description: 'A token.',
      imageUrl: 'ipfs://QmImage/7.png',
    });
  });

  it('a contract that gave no URI: its reason, code contract', async () => {
    expect(await fetchMetadata(token('legacy'), { ok: false, reason: 'tokenURI reverted' }, load)).toMatchObject({
      tokenUri: null,
      rawTokenUri: null,
      metadata: null,
      error: 'tokenURI reverted',
      errorCode: 'contract',
    });
  });

  it('ERC-1155: {id} substituted for the fetch; rawTokenUri keeps it; ipfs:// shown through the gateway', async () => {
    const fetched = await fetchMetadata(token('erc1155', '10'), { ok: true, uri: 'ftp://example.com/{id}.json' }, load);
    expect(fetched).toMatchObject({ rawTokenUri: 'ftp://example.com/{id}.json', tokenUri: `ftp://example.com/${'0'.repeat(62)}0a.json` });
    expect(fetched.error).toBe('unsupported URI scheme ftp:');
    expect((await fetchMetadata(token('erc721'), { ok: true, uri: 'ipfs://QmBad!' }, load)).tokenUri).toBe('ipfs://QmBad!');
  });

  it('an empty URI, a document that is not JSON, one over the cap', async () => {
    expect(await fetchMetadata(token('erc721'), { ok: true, uri: '' }, load)).toMatchObject({ tokenUri: null, rawTokenUri: '', error: 'empty URI' });
    expect((await fetchMetadata(token('erc721'), { ok: true, uri: 'data:,hello' }, load)).error).toBe('not JSON');
    expect((await fetchMetadata(token('erc721'), { ok: true, uri: dataJson({ name: 'x'.repeat(5000) }) }, load)).error).toBe('too large');
  });
});

describe('isPassingFailure', () => {
  it('timeouts, unreachable origins, 5xx and 429 pass; 404, bad URIs and contracts do not', () => {
    expect(isPassingFailure('timeout', 'timeout')).toBe(true);
    expect(isPassingFailure('unreachable', 'connection refused')).toBe(true);
    expect(isPassingFailure('http_status', 'HTTP 503')).toBe(true);
    expect(isPassingFailure('http_status', 'HTTP 429')).toBe(true);
    expect(isPassingFailure('http_status', 'HTTP 404')).toBe(false);
    expect(isPassingFailure('bad_uri', 'empty URI')).toBe(false);
    expect(isPassingFailure('contract', 'tokenURI reverted')).toBe(false);
    expect(isPassingFailure(null, null)).toBe(false);
  });
});
