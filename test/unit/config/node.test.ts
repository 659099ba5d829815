import { describe, expect, it } from 'vitest';
import { readNodeConfig, readNodeDomain } from '../../../src/config/node.ts';

const networks = [{ id: 'ethereum-sepolia' }, { id: 'base-sepolia' }];

describe('readNodeConfig', () => {
  it('defaults: no domain, upstreams only where configured, the demo key at 10/s burst 20, no metrics, the WebSocket limits', () => {
    expect(readNodeConfig({}, networks)).toEqual({
      nodeDomain: null,
      upstreams: { 'ethereum-sepolia': [], 'base-sepolia': [] },
      upstreamTimeoutMs: 10_000,
      demoLimit: { requestsPerSecond: 10, burst: 20 },
      metrics: null,
      webSocket: { maxConnectionsPerKey: 50, maxTopicsPerKey: 200, subscriptionComputeUnitsPerMinute: 10 },
    });
  });

  it('reads the WebSocket limits; 0 turns the charge of open subscriptions off', () => {
    const env = { NODE_WS_MAX_CONNECTIONS_PER_KEY: '5', NODE_WS_MAX_TOPICS_PER_KEY: '7', NODE_WS_SUBSCRIPTION_CU_PER_MINUTE: '0' };
    expect(readNodeConfig(env, networks).webSocket).toEqual({ maxConnectionsPerKey: 5, maxTopicsPerKey: 7, subscriptionComputeUnitsPerMinute: 0 });
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
