import { describe, expect, it } from 'vitest';
import { readNodeConfig, readNodeDomain } from '../../../src/config/node.ts';

const networks = [{ id: 'ethereum-sepolia' }, { id: 'base-sepolia' }];

describe('readNodeConfig', () => {
  it('defaults: no domain, upstreams only where configured, the demo key and accounts in compute units, no metrics, the WebSocket limits', () => {
    expect(readNodeConfig({}, networks)).toEqual({
      nodeDomain: null,
      upstreams: { 'ethereum-sepolia': [], 'base-sepolia': [] },
      upstreamTimeoutMs: 10_000,
      upstreamTraceTimeoutMs: 20_000,
      privateTransactionCheckMs: 250,
      // 10 calls a second of 20 CU per client IP, as the request limit allowed; every bucket holds 10 s of its rate.
      demoLimit: { perClient: { computeUnitsPerSecond: 200, burst: 2_000 }, perNetwork: { computeUnitsPerSecond: 10_000, burst: 100_000 } },
      accountLimit: { computeUnitsPerSecond: 1_000, burst: 10_000 },
      minRequestComputeUnits: undefined,
      metrics: null,
      webSocket: { maxConnectionsPerKey: 50, maxTopicsPerKey: 200, subscriptionComputeUnitsPerMinute: 10 },
      warnings: [],
    });
  });

  it('reads the upstream deadlines, and stops on one that is not a whole number above 0, naming it', () => {
    const config = readNodeConfig({ NODE_UPSTREAM_TIMEOUT_MS: '4000', NODE_UPSTREAM_TRACE_TIMEOUT_MS: '45000', NODE_PRIVATE_TX_CHECK_MS: '100' }, networks);
    expect(config).toMatchObject({ upstreamTimeoutMs: 4_000, upstreamTraceTimeoutMs: 45_000, privateTransactionCheckMs: 100 });
    expect(() => readNodeConfig({ NODE_PRIVATE_TX_CHECK_MS: 'soon' }, networks)).toThrow(/^NODE_PRIVATE_TX_CHECK_MS must be a whole number greater than 0/);
    expect(() => readNodeConfig({ NODE_UPSTREAM_TRACE_TIMEOUT_MS: '0' }, networks)).toThrow(
      /^NODE_UPSTREAM_TRACE_TIMEOUT_MS must be a whole number greater than 0/,
    );
  });

  it('reads the WebSocket limits; 0 turns the charge of open subscriptions off', () => {
    const env = { NODE_WS_MAX_CONNECTIONS_PER_KEY: '5', NODE_WS_MAX_TOPICS_PER_KEY: '7', NODE_WS_SUBSCRIPTION_CU_PER_MINUTE: '0' };
    expect(readNodeConfig(env, networks).webSocket).toEqual({ maxConnectionsPerKey: 5, maxTopicsPerKey: 7, subscriptionComputeUnitsPerMinute: 0 });
  });

  it('reads the compute-unit limits', () => {
    const config = readNodeConfig(
      {
        DEMO_KEY_COMPUTE_UNITS_PER_SECOND: '50',
        DEMO_KEY_COMPUTE_UNIT_BURST: '500',
        DEMO_KEY_NETWORK_COMPUTE_UNITS_PER_SECOND: '700',
        DEMO_KEY_NETWORK_COMPUTE_UNIT_BURST: '1400',
        ACCOUNT_COMPUTE_UNITS_PER_SECOND: '660',
        NODE_MIN_REQUEST_COMPUTE_UNITS: '5',
      },
      networks,
    );
    expect(config).toMatchObject({
      demoLimit: { perClient: { computeUnitsPerSecond: 50, burst: 500 }, perNetwork: { computeUnitsPerSecond: 700, burst: 1400 } },
      accountLimit: { computeUnitsPerSecond: 660, burst: 6_600 },
      minRequestComputeUnits: 5,
      warnings: [],
    });
  });

  it('gives a bucket 10 s of its rate unless its burst is set', () => {
    const config = readNodeConfig({ DEMO_KEY_COMPUTE_UNITS_PER_SECOND: '50', DEMO_KEY_NETWORK_COMPUTE_UNITS_PER_SECOND: '700' }, networks);
    expect(config.demoLimit).toEqual({ perClient: { computeUnitsPerSecond: 50, burst: 500 }, perNetwork: { computeUnitsPerSecond: 700, burst: 7_000 } });
  });

  it('reads the demo key’s old request settings as calls of 20 CU, with a warning naming the new ones', () => {
    const config = readNodeConfig({ DEMO_KEY_REQUESTS_PER_SECOND: '5', DEMO_KEY_BURST: '30', DEMO_KEY_COMPUTE_UNIT_BURST: '900' }, networks);
    expect(config.demoLimit.perClient).toEqual({ computeUnitsPerSecond: 100, burst: 900 });
    expect(config.warnings).toEqual([
      expect.stringMatching(/^DEMO_KEY_REQUESTS_PER_SECOND is renamed DEMO_KEY_COMPUTE_UNITS_PER_SECOND .*DEMO_KEY_COMPUTE_UNITS_PER_SECOND=100/),
      expect.stringMatching(/^DEMO_KEY_BURST is no longer read: DEMO_KEY_COMPUTE_UNIT_BURST=900 applies/),
    ]);
  });

  it('reads upstream lists, falling back to the faucet’s RPC URL of the network', () => {
    const config = readNodeConfig(
      { NODE_UPSTREAMS_ETHEREUM_SEPOLIA: 'https://a.example/v2/k, http://127.0.0.1:8545', RPC_URL_BASE_SEPOLIA: 'https://base.example' },
      networks,
    );
    expect(config.upstreams).toEqual({ 'ethereum-sepolia': ['https://a.example/v2/k', 'http://127.0.0.1:8545'], 'base-sepolia': ['https://base.example'] });
  });

  it.each([
    [{ NODE_UPSTREAMS_NOPE_NET: 'https://a.example' }, /NODE_UPSTREAMS_NOPE_NET does not name a network/],
    [{ NODE_UPSTREAMS_BASE_SEPOLIA: 'ftp://a.example' }, /NODE_UPSTREAMS_BASE_SEPOLIA must list http\(s\) URLs/],
    [{ NODE_UPSTREAMS_BASE_SEPOLIA: ' , ' }, /NODE_UPSTREAMS_BASE_SEPOLIA must list at least one URL/],
    [{ NODE_DOMAIN: 'https://node.example.com' }, /NODE_DOMAIN must be a domain name/],
    [{ METRICS_PORT: '70000' }, /METRICS_PORT must be a port number/],
    [{ DEMO_KEY_BURST: '0' }, /DEMO_KEY_BURST must be a whole number greater than 0/],
    [{ NODE_WS_MAX_CONNECTIONS_PER_KEY: '0' }, /NODE_WS_MAX_CONNECTIONS_PER_KEY must be a whole number greater than 0/],
    [{ NODE_WS_MAX_TOPICS_PER_KEY: 'many' }, /NODE_WS_MAX_TOPICS_PER_KEY must be a whole number greater than 0/],
    [{ NODE_WS_SUBSCRIPTION_CU_PER_MINUTE: '-1' }, /NODE_WS_SUBSCRIPTION_CU_PER_MINUTE must be a whole number \(0 or more\)/],
    [{ DEMO_KEY_COMPUTE_UNIT_BURST: '0' }, /DEMO_KEY_COMPUTE_UNIT_BURST must be a whole number from 1 to 100000000/],
    [{ DEMO_KEY_NETWORK_COMPUTE_UNITS_PER_SECOND: '1.5' }, /DEMO_KEY_NETWORK_COMPUTE_UNITS_PER_SECOND must be a whole number/],
    [{ ACCOUNT_COMPUTE_UNITS_PER_SECOND: '200000000' }, /ACCOUNT_COMPUTE_UNITS_PER_SECOND must be a whole number from 1 to 100000000/],
    [{ NODE_MIN_REQUEST_COMPUTE_UNITS: 'ten' }, /NODE_MIN_REQUEST_COMPUTE_UNITS must be a whole number/],
  ])('refuses %o naming the variable', (env, message) => {
    expect(() => readNodeConfig(env, networks)).toThrow(message);
  });

  it('serves metrics only where asked, on 127.0.0.1 by default', () => {
    expect(readNodeConfig({ METRICS_PORT: '9464' }, networks).metrics).toEqual({ port: 9464, host: '127.0.0.1' });
    expect(readNodeConfig({ NODE_DOMAIN: 'Node.Example.com' }, networks).nodeDomain).toBe('node.example.com');
  });
});

describe('readNodeDomain', () => {
  it('is the one reader of NODE_DOMAIN: the gateway’s and the build’s value', () => {
    expect(readNodeDomain({})).toBeNull();
    expect(readNodeDomain({ NODE_DOMAIN: ' Node.Example.com ' })).toBe('node.example.com');
    expect(readNodeConfig({ NODE_DOMAIN: 'node.example.com' }, networks).nodeDomain).toBe(readNodeDomain({ NODE_DOMAIN: 'node.example.com' }));
    expect(() => readNodeDomain({ NODE_DOMAIN: 'node' })).toThrow(/NODE_DOMAIN must be a domain name/);
  });
});
