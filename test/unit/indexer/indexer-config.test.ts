import { describe, expect, it } from 'vitest';
import { readIndexerConfig } from '../../../src/config/indexer.ts';

// src/config/indexer.ts: the INDEXER_* variables, read from an env record.

const networks = [{ id: 'ethereum-sepolia' }, { id: 'base-sepolia' }];

describe('readIndexerConfig', () => {
  it('defaults: every network with an upstream, from block 0, at the head, the node gateway’s URLs and timeout', () => {
    expect(readIndexerConfig({ RPC_URL_BASE_SEPOLIA: 'https://base.example' }, networks)).toEqual({
      inServer: true,
      networks: null,
      rpcUrls: { 'ethereum-sepolia': [], 'base-sepolia': ['https://base.example'] },
      startBlocks: {},
      confirmations: 0,
      pollIntervalMs: 1000,
      maxBlockRange: 2000,
      maxLogsPerRange: 10_000,
      reorgWindow: 128,
      blocksPerStep: 32,
      leaseMs: 30_000,
      rpcTimeoutMs: 10_000,
      catchUpWaitMs: 60_000,
    });
  });

  it("INDEXER_NETWORKS=all names every network; INDEXER_IN_SERVER turns the server's indexer off", () => {
    expect(readIndexerConfig({ INDEXER_NETWORKS: 'all' }, networks).networks).toEqual(networks.map((network) => network.id));
    expect(readIndexerConfig({ INDEXER_IN_SERVER: 'off' }, networks).inServer).toBe(false);
    expect(() => readIndexerConfig({ INDEXER_IN_SERVER: 'maybe' }, networks)).toThrow(/INDEXER_IN_SERVER must be on or off/);
  });

  it('reads every variable', () => {
    const config = readIndexerConfig(
      {
        INDEXER_NETWORKS: 'base-sepolia, ethereum-sepolia',
        INDEXER_START_BLOCK_BASE_SEPOLIA: '123456',
        INDEXER_CONFIRMATIONS: '3',
        INDEXER_POLL_INTERVAL_MS: '250',
        INDEXER_MAX_BLOCK_RANGE: '500',
        INDEXER_MAX_LOGS_PER_RANGE: '5000',
        INDEXER_REORG_WINDOW: '64',
        INDEXER_BLOCKS_PER_STEP: '8',
        INDEXER_LEASE_MS: '10000',
        INDEXER_CATCH_UP_WAIT_MS: '0',
        NODE_UPSTREAM_TIMEOUT_MS: '4000',
      },
      networks,
    );
    expect(config).toMatchObject({
      networks: ['base-sepolia', 'ethereum-sepolia'],
      startBlocks: { 'base-sepolia': 123_456 },
      confirmations: 3,
      pollIntervalMs: 250,
      maxBlockRange: 500,
      maxLogsPerRange: 5000,
      reorgWindow: 64,
      blocksPerStep: 8,
      leaseMs: 10_000,
      rpcTimeoutMs: 4000,
      catchUpWaitMs: 0,
    });
  });

  it.each([
    [{ INDEXER_NETWORKS: 'base-sepolia,nope' }, /INDEXER_NETWORKS names nope, which is no network/],
    [{ INDEXER_START_BLOCK_NOPE: '1' }, /INDEXER_START_BLOCK_NOPE does not name a network/],
    [{ INDEXER_START_BLOCK_BASE_SEPOLIA: '-1' }, /INDEXER_START_BLOCK_BASE_SEPOLIA must be a whole number from 0/],
    [{ INDEXER_MAX_BLOCK_RANGE: '0' }, /INDEXER_MAX_BLOCK_RANGE must be a whole number from 1/],
    [{ INDEXER_LEASE_MS: 'soon' }, /INDEXER_LEASE_MS must be a whole number/],
    [{ INDEXER_CATCH_UP_WAIT_MS: '-5' }, /INDEXER_CATCH_UP_WAIT_MS must be a whole number from 0/],
    [{ INDEXER_CONFIRMATIONS: '128' }, /INDEXER_REORG_WINDOW \(128\) must be larger than INDEXER_CONFIRMATIONS \(128\)/],
  ])('refuses %o naming the variable', (env, message) => {
    expect(() => readIndexerConfig(env, networks)).toThrow(message);
  });

  it('treats an empty value as unset', () => {
    expect(readIndexerConfig({ INDEXER_NETWORKS: '', INDEXER_CONFIRMATIONS: '' }, networks)).toMatchObject({ networks: null, confirmations: 0 });
  });
});
