import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hostedMetadataDocuments, worldBaseUri } from '../../../src/chain/world/metadata.ts';
import { erc1155UriId, substituteTokenId } from '../../../src/chain/erc1155-uri.ts';
import { resolveTokenUri, type ResolvedTokenUri } from '../../../src/nfts/token-uri.ts';

const gateways = { ipfs: 'https://ipfs.example/ipfs/', arweave: 'https://arweave.example/' };
const CID = 'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG';

const remote = (uri: string) => {
  const resolved = resolveTokenUri(uri, gateways);
  return resolved.kind === 'remote' ? { url: resolved.url.href, via: resolved.via } : resolved;
};
const reason = (resolved: ResolvedTokenUri) => (resolved.kind === 'unusable' ? `${resolved.error.code}: ${resolved.error.reason}` : resolved.kind);
const inline = (uri: string) => {
  const resolved = resolveTokenUri(uri, gateways);
  if (resolved.kind !== 'inline') throw new Error(`not inline: ${reason(resolved)}`);
  return { contentType: resolved.contentType, text: new TextDecoder().decode(resolved.bytes) };
};

describe('substituteTokenId (EIP-1155 {id})', () => {
  it('writes the id as 64 lowercase hex digits without 0x, every {id} replaced', () => {
    expect(erc1155UriId(1n)).toBe(`${'0'.repeat(63)}1`);
    expect(erc1155UriId(0xabcdefn)).toBe(`${'0'.repeat(58)}abcdef`);
    expect(substituteTokenId('https://x.example/{id}/{id}.json', 255n)).toBe(`https://x.example/${'0'.repeat(62)}ff/${'0'.repeat(62)}ff.json`);
    expect(substituteTokenId('https://x.example/7.json', 255n)).toBe('https://x.example/7.json');
    expect(erc1155UriId(2n ** 256n - 1n)).toBe('f'.repeat(64));
  });

  it('names the hosted documents of the local world’s ERC-1155, as the world writes them', () => {
    const template = `${worldBaseUri('http://localhost:4321', 'materials')}{id}.json`;
    for (const id of [1n, 2n, 3n]) {
      const path = new URL(substituteTokenId(template, id)).pathname.replace(/^\/world\/nft\//, '');
      expect(hostedMetadataDocuments()).toContain(path);
      expect(existsSync(`public/world/nft/${path}`)).toBe(true);
    }
  });
});

describe('resolveTokenUri', () => {
  it('takes http(s) URLs as they are', () => {
    expect(remote(' https://meta.example/1.json ')).toEqual({ url: 'https://meta.example/1.json', via: 'http' });
    expect(remote('HTTP://meta.example:8080/a?b=c')).toEqual({ url: 'http://meta.example:8080/a?b=c', via: 'http' });
  });

  it('sends ipfs:// (and ipfs://ipfs/) through the configured gateway', () => {
    expect(remote(`ipfs://${CID}`)).toEqual({ url: `https://ipfs.example/ipfs/${CID}`, via: 'ipfs' });
    expect(remote(`ipfs://${CID}/1.json`)).toEqual({ url: `https://ipfs.example/ipfs/${CID}/1.json`, via: 'ipfs' });
    expect(remote(`ipfs://ipfs/${CID}/metadata/7`)).toEqual({ url: `https://ipfs.example/ipfs/${CID}/metadata/7`, via: 'ipfs' });
    expect(remote(`IPFS://${CID}/a b.json`)).toEqual({ url: `https://ipfs.example/ipfs/${CID}/a%20b.json`, via: 'ipfs' });
  });

  it('sends ar:// through the Arweave gateway', () => {
    const id = 'bNbA3TEQVL60xlgCcqdz4ZPHFZ711cZ3hmkpGttDt_U';
    expect(remote(`ar://${id}/0.json`)).toEqual({ url: `https://arweave.example/${id}/0.json`, via: 'arweave' });
  });

  it('refuses gateway URIs without a content id or climbing out of it', () => {
    expect(reason(resolveTokenUri('ipfs://', gateways))).toBe('bad_uri: ipfs:// URI without a content id');
    expect(reason(resolveTokenUri('ipfs://ipfs/', gateways))).toBe('bad_uri: ipfs:// URI without a content id');
    expect(reason(resolveTokenUri('ipfs:QmX', gateways))).toBe('bad_uri: ipfs:// URI without a content id');
    expect(reason(resolveTokenUri(`ipfs://${CID}/../../admin`, gateways))).toBe('bad_uri: bad ipfs:// URI');
    expect(reason(resolveTokenUri('ar://a.b/x', gateways))).toBe('bad_uri: ar:// URI without a content id');
  });

  it('decodes base64 data: URIs without a request', () => {
    const json = '{"name":"Relic #100"}';
    expect(inline(`data:application/json;base64,${Buffer.from(json).toString('base64')}`)).toEqual({ contentType: 'application/json', text: json });
    // Unpadded, with white space, as the forgiving base64 of the URL standard reads it.
    expect(inline('data:text/plain;BASE64, aGk')).toEqual({ contentType: 'text/plain', text: 'hi' });
    const svg = "<svg xmlns='http://www.w3.org/2000/svg'/>";
    expect(inline(`data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`)).toEqual({ contentType: 'image/svg+xml', text: svg });
  });

  it('decodes percent-encoded and raw data: URIs, a stray % and # kept', () => {
    expect(inline('data:application/json;charset=utf-8,%7B%22name%22%3A%22caf%C3%A9%22%7D')).toEqual({
      contentType: 'application/json;charset=utf-8',
      text: '{"name":"café"}',
    });
    expect(inline('data:application/json;utf8,{"name":"100% #1"}')).toEqual({ contentType: 'application/json;utf8', text: '{"name":"100% #1"}' });
    expect(inline('data:,hello')).toEqual({ contentType: 'text/plain;charset=US-ASCII', text: 'hello' });
    expect(inline('DATA:Image/SVG+XML,<svg/>')).toEqual({ contentType: 'image/svg+xml', text: '<svg/>' });
  });

  it('says why a URI cannot be used', () => {
    expect(reason(resolveTokenUri('', gateways))).toBe('bad_uri: empty URI');
    expect(reason(resolveTokenUri(CID, gateways))).toBe('bad_uri: not a URI');
    expect(reason(resolveTokenUri('/metadata/1.json', gateways))).toBe('bad_uri: not a URI');
    expect(reason(resolveTokenUri('ftp://files.example/1.json', gateways))).toBe('unsupported_uri: unsupported URI scheme ftp:');
    expect(reason(resolveTokenUri('file:///etc/passwd', gateways))).toBe('unsupported_uri: unsupported URI scheme file:');
    expect(reason(resolveTokenUri('javascript:alert(1)', gateways))).toBe('unsupported_uri: unsupported URI scheme javascript:');
    expect(reason(resolveTokenUri('https://', gateways))).toBe('bad_uri: not a URL');
    expect(reason(resolveTokenUri('data:application/json;base64', gateways))).toBe('bad_uri: data: URI without a comma');
    expect(reason(resolveTokenUri('data:application/json;base64,e30*', gateways))).toBe('bad_uri: data: URI not valid base64');
    expect(reason(resolveTokenUri('data:;base64,abcde', gateways))).toBe('bad_uri: data: URI not valid base64');
  });
});
