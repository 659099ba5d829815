import { describe, expect, it } from 'vitest';
import { readWebhooksConfig } from '../../../src/config/webhooks.ts';

describe('readWebhooksConfig', () => {
  it('has the platform’s defaults: retries after 15 s, 1 min, 10 min and 1 h, a 5 s timeout, 20 webhooks per account', () => {
    expect(readWebhooksConfig({}, { local: false })).toEqual({
      inServer: true,
      retryDelaysMs: [15_000, 60_000, 600_000, 3_600_000],
      timeoutMs: 5000,
      pauseAfterFailures: 5,
      pollIntervalMs: 500,
      claimMs: 30_000,
      concurrency: 16,
      perAccount: 20,
      maxAddresses: 100_000,
      txPollIntervalMs: 2000,
      txDroppedAfterMs: 300_000,
      txReorgDepth: 64,
      local: false,
    });
  });

  it('reads every variable', () => {
    const config = readWebhooksConfig(
      {
        WEBHOOKS_IN_SERVER: 'off',
        WEBHOOK_RETRY_DELAYS_MS: '10, 20,30',
        WEBHOOK_TIMEOUT_MS: '100',
        WEBHOOK_PAUSE_AFTER_FAILURES: '2',
        WEBHOOK_POLL_INTERVAL_MS: '5',
        WEBHOOK_CLAIM_MS: '1000',
        WEBHOOK_CONCURRENCY: '3',
        WEBHOOKS_PER_ACCOUNT: '4',
        WEBHOOK_MAX_ADDRESSES: '10',
        WEBHOOK_TX_POLL_INTERVAL_MS: '50',
        WEBHOOK_TX_DROPPED_AFTER_MS: '600',
        WEBHOOK_TX_REORG_DEPTH: '3',
      },
      { local: true },
    );
    expect(config).toEqual({
      inServer: false,
      retryDelaysMs: [10, 20, 30],
      timeoutMs: 100,
      pauseAfterFailures: 2,
      pollIntervalMs: 5,
      claimMs: 1000,
      concurrency: 3,
      perAccount: 4,
      maxAddresses: 10,
      txPollIntervalMs: 50,
      txDroppedAfterMs: 600,
      txReorgDepth: 3,
      local: true,
    });
  });

  it('refuses bad values naming the variable', () => {
    expect(() => readWebhooksConfig({ WEBHOOKS_IN_SERVER: 'yes' }, { local: true })).toThrow(/WEBHOOKS_IN_SERVER must be on or off/);
    expect(() => readWebhooksConfig({ WEBHOOK_RETRY_DELAYS_MS: '1m' }, { local: true })).toThrow(/WEBHOOK_RETRY_DELAYS_MS/);
    expect(() => readWebhooksConfig({ WEBHOOK_TIMEOUT_MS: '0' }, { local: true })).toThrow(/WEBHOOK_TIMEOUT_MS/);
    expect(() => readWebhooksConfig({ WEBHOOKS_PER_ACCOUNT: '0' }, { local: true })).toThrow(/WEBHOOKS_PER_ACCOUNT must be a whole number from 1/);
    expect(() => readWebhooksConfig({ WEBHOOK_MAX_ADDRESSES: 'lots' }, { local: true })).toThrow(/WEBHOOK_MAX_ADDRESSES/);
    expect(() => readWebhooksConfig({ WEBHOOK_TX_DROPPED_AFTER_MS: '-1' }, { local: true })).toThrow(/WEBHOOK_TX_DROPPED_AFTER_MS/);
    expect(() => readWebhooksConfig({ WEBHOOK_CLAIM_MS: '5000' }, { local: true })).toThrow(
      /WEBHOOK_CLAIM_MS \(5000\) must exceed WEBHOOK_TIMEOUT_MS \(5000\)/,
    );
  });
});
