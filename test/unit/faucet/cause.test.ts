import { createPublicClient, http } from 'viem';
import { describe, expect, it } from 'vitest';
import { describeCause } from '../../../src/faucet/cause.ts';

describe('describeCause', () => {
  it("keeps each error's name and short message along the cause chain", () => {
    const error = new Error('broadcast failed', { cause: new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') }) });
    expect(describeCause(error)).toBe('Error: broadcast failed <- TypeError: fetch failed <- Error: connect ECONNREFUSED 127.0.0.1:9');
    expect(describeCause('a string')).toBe('a string');
  });

  it('cuts URLs to their origin: RPC URLs carry API keys, Redis URLs passwords', () => {
    const text = describeCause(new Error('no answer from https://eth-sepolia.example.com/v2/SECRET-API-KEY?x=1 or redis://user:hunter2@127.0.0.1:6379/0'));
    expect(text).toBe('Error: no answer from https://eth-sepolia.example.com or redis://127.0.0.1:6379');
    expect(text).not.toMatch(/SECRET|hunter2/);
  });

  it("uses viem's short message, never its long one with the URL and the request body", async () => {
    const client = createPublicClient({ transport: http('http://127.0.0.1:9/v2/SECRET-API-KEY', { retryCount: 0 }) });
    const error = await client.getBlockNumber().catch((e: unknown) => e);
    const text = describeCause(error);
    expect(text).toMatch(/^HttpRequestError: HTTP request failed/);
    expect(text).not.toContain('SECRET-API-KEY');
    expect(text).not.toContain('eth_blockNumber');
  });
});
