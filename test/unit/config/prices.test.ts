import { describe, expect, it } from 'vitest';
import { readPricesConfig } from '../../../src/config/prices.ts';

describe('readPricesConfig', () => {
  it('reads the local world and no exchange in local mode, both exchanges and no world otherwise', () => {
    const local = readPricesConfig({}, { local: true });
    expect(local).toMatchObject({
      sampleMs: 300_000,
      inServer: true,
      worldNetwork: 'ethereum-sepolia',
      domain: null,
      madThreshold: 3,
      exchangeTimeoutMs: 10_000,
    });
    expect([...local.exchanges]).toEqual([]);
    const production = readPricesConfig({}, { local: false });
    expect(production.worldNetwork).toBeNull();
    expect([...production.exchanges]).toEqual(['coinbase', 'kraken']);
    expect(production.maxAgeMs).toEqual({ 'amm-v2': 600_000, 'amm-v3': 600_000, oracle: 90_000_000, exchange: 600_000 });
  });

  it('takes each variable, trimming base URLs of their trailing slash', () => {
    const config = readPricesConfig(
      {
        PRICES_SAMPLE_SECONDS: '2',
        PRICES_IN_SERVER: 'off',
        PRICES_EXCHANGES: 'kraken',
        PRICES_COINBASE_URL: 'http://127.0.0.1:9000/',
        PRICES_DOMAIN: 'Prices.Example.com',
        PRICES_OUTLIER_MADS: '4.5',
        PRICES_WORLD_NETWORK: 'crucible-testnet',
        PRICES_EXCHANGE_TIMEOUT_MS: '250',
      },
      { local: true },
    );
    expect(config).toMatchObject({
      sampleMs: 2000,
      inServer: false,
      domain: 'prices.example.com',
      madThreshold: 4.5,
      worldNetwork: 'crucible-testnet',
      exchangeTimeoutMs: 250,
    });
    expect([...config.exchanges]).toEqual(['kraken']);
    expect(config.exchangeUrls.coinbase).toBe('http://127.0.0.1:9000');
    expect([...readPricesConfig({ PRICES_EXCHANGES: 'none' }, { local: false }).exchanges]).toEqual([]);
  });

  it('refuses bad values, naming the variable', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ PRICES_SAMPLE_SECONDS: '0' }, 'PRICES_SAMPLE_SECONDS must be a whole number of seconds from 1'],
      [{ PRICES_EXCHANGES: 'coinbase,binance' }, 'PRICES_EXCHANGES must list exchanges among coinbase, kraken, or be none (not binance)'],
      [{ PRICES_OUTLIER_MADS: '0.5' }, 'PRICES_OUTLIER_MADS must be a number of at least 1'],
      [{ PRICES_COINBASE_URL: 'ftp://x' }, 'PRICES_COINBASE_URL must be an http(s) URL'],
      [{ PRICES_IN_SERVER: 'yes' }, 'PRICES_IN_SERVER must be on or off'],
      [{ PRICES_EXCHANGE_TIMEOUT_MS: '1.5' }, 'PRICES_EXCHANGE_TIMEOUT_MS must be a whole number of milliseconds from 1'],
    ];
    for (const [env, message] of cases)
      expect(() => readPricesConfig(env, { local: true })).toThrow(`Invalid prices configuration: ${message}. See .env.example.`);
  });
});
