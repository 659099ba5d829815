import { describe, expect, it } from 'vitest';
import { readNftMetadataConfig } from '../../../../src/config/nft-metadata.ts';

describe('readNftMetadataConfig', () => {
  it('defaults: in the server, a day’s TTL, failures retried after 10 min, 5 s between idle passes, 100 tokens a pass, 8 fetches at once', () => {
    expect(readNftMetadataConfig({})).toEqual({
      inServer: true,
      ttlMs: 86_400_000,
      retryMs: 600_000,
      pollIntervalMs: 5000,
      batch: 100,
      concurrency: 8,
    });
  });

  it('reads every variable', () => {
    expect(
      readNftMetadataConfig({
        NFT_METADATA_IN_SERVER: 'off',
        NFT_METADATA_TTL_MS: '3600000',
        NFT_METADATA_RETRY_MS: '60000',
        NFT_METADATA_POLL_INTERVAL_MS: '250',
        NFT_METADATA_BATCH: '50',
        NFT_METADATA_CONCURRENCY: '2',
      }),
    ).toEqual({ inServer: false, ttlMs: 3_600_000, retryMs: 60_000, pollIntervalMs: 250, batch: 50, concurrency: 2 });
  });

  it.each([
    [{ NFT_METADATA_IN_SERVER: 'yes' }, 'NFT_METADATA_IN_SERVER must be on or off'],
    [{ NFT_METADATA_TTL_MS: '0' }, 'NFT_METADATA_TTL_MS must be a whole number from 1'],
    [{ NFT_METADATA_BATCH: '1001' }, 'NFT_METADATA_BATCH must be at most 1000'],
    [{ NFT_METADATA_CONCURRENCY: '-1' }, 'NFT_METADATA_CONCURRENCY must be a whole number from 1'],
  ])('refuses %o naming the variable', (env, message) => {
    expect(() => readNftMetadataConfig(env)).toThrow(`Invalid NFT metadata configuration: ${message}. See .env.example.`);
  });
});
