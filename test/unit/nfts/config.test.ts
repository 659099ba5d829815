import { describe, expect, it } from 'vitest';
import { readNftsConfig } from '../../../src/config/nfts.ts';
import { tokenUriTimeoutMs } from '../../../src/nfts/fetch-timeout.ts';

const production = { local: false };

describe('readNftsConfig', () => {
  it('defaults: ipfs.io and arweave.net, 10 s (at most 20 s), 1 MiB documents, 10 MiB images, private addresses denied', () => {
    expect(readNftsConfig({}, production)).toEqual({
      gateways: { ipfs: 'https://ipfs.io/ipfs/', arweave: 'https://arweave.net/' },
      tokenUriTimeout: { defaultMs: 10_000, maxMs: 20_000 },
      metadataMaxBytes: 1024 * 1024,
      imageMaxBytes: 10 * 1024 * 1024,
      privateAddresses: 'deny',
    });
  });

  it("allows the site's own origin alone among private addresses by default in local mode, and the variable decides in either mode", () => {
    expect(readNftsConfig({}, { local: true }).privateAddresses).toBe('site');
    expect(readNftsConfig({ NFT_FETCH_PRIVATE: 'deny' }, { local: true }).privateAddresses).toBe('deny');
    expect(readNftsConfig({ NFT_FETCH_PRIVATE: 'allow' }, { local: true }).privateAddresses).toBe('allow');
    expect(readNftsConfig({ NFT_FETCH_PRIVATE: 'allow' }, production).privateAddresses).toBe('allow');
    expect(readNftsConfig({ NFT_FETCH_PRIVATE: 'site' }, production).privateAddresses).toBe('site');
  });

  it('reads every variable, a gateway given its trailing slash', () => {
    const config = readNftsConfig(
      {
        NFT_IPFS_GATEWAY: 'http://127.0.0.1:8080/ipfs',
        NFT_ARWEAVE_GATEWAY: 'https://ar.example/',
        NFT_TOKEN_URI_TIMEOUT_MS: '2000',
        NFT_TOKEN_URI_TIMEOUT_MAX_MS: '5000',
        NFT_METADATA_MAX_BYTES: '65536',
        NFT_IMAGE_MAX_BYTES: '1048576',
        NFT_FETCH_PRIVATE: '',
      },
      production,
    );
    expect(config).toEqual({
      gateways: { ipfs: 'http://127.0.0.1:8080/ipfs/', arweave: 'https://ar.example/' },
      tokenUriTimeout: { defaultMs: 2000, maxMs: 5000 },
      metadataMaxBytes: 65536,
      imageMaxBytes: 1048576,
      privateAddresses: 'deny',
    });
  });

  it.each([
    [{ NFT_IPFS_GATEWAY: 'ipfs.io' }, /NFT_IPFS_GATEWAY must be an http\(s\) URL/],
    [{ NFT_ARWEAVE_GATEWAY: 'ftp://ar.example/' }, /NFT_ARWEAVE_GATEWAY must be an http\(s\) URL/],
    [{ NFT_IPFS_GATEWAY: 'https://gw.example/ipfs/?token=1' }, /NFT_IPFS_GATEWAY must be an http\(s\) URL without a query or fragment/],
    [{ NFT_TOKEN_URI_TIMEOUT_MS: '0' }, /NFT_TOKEN_URI_TIMEOUT_MS must be a whole number from 1/],
    [{ NFT_IMAGE_MAX_BYTES: '10MB' }, /NFT_IMAGE_MAX_BYTES must be a whole number from 1/],
    [{ NFT_FETCH_PRIVATE: 'yes' }, /NFT_FETCH_PRIVATE must be deny, site or allow/],
    [{ NFT_TOKEN_URI_TIMEOUT_MS: '30000' }, /NFT_TOKEN_URI_TIMEOUT_MS \(30000\) must not exceed NFT_TOKEN_URI_TIMEOUT_MAX_MS \(20000\)/],
  ])('refuses %o naming the variable', (env, message) => {
    expect(() => readNftsConfig(env, production)).toThrow(message);
  });
});

describe('tokenUriTimeoutMs', () => {
  const limits = readNftsConfig({}, production).tokenUriTimeout;
  it('is the default when not asked, what is asked within the maximum, and no fetch at all for 0', () => {
    expect(tokenUriTimeoutMs(limits)).toBe(10_000);
    expect(tokenUriTimeoutMs(limits, 1500)).toBe(1500);
    expect(tokenUriTimeoutMs(limits, 60_000)).toBe(20_000);
    expect(tokenUriTimeoutMs(limits, 0)).toBeNull();
  });
});
