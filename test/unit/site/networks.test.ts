import { describe, expect, it } from 'vitest';
import { rpcRegistry } from '../../../src/node/rpc/registry.ts';
import { networkFacts, rpcMethodAnchor, rpcMethodListing } from '../../../src/site/networks.ts';
import { smallSite } from '../../support/small-site.ts';

const network = smallSite().network('base-sepolia')!;
const fact = (key: string, siteOrigin: string, nodeDomain: string | null) =>
  networkFacts(network, '/faucets/base-sepolia', { siteOrigin, nodeDomain }).find((fact) => fact.key === key)?.value;
const endpoint = (nodeDomain: string | null) => fact('endpoint', 'https://crucible.example', nodeDomain);

describe('networkFacts', () => {
  it('shows {node_url}/v2/<API_KEY> from the configured host (docs/hosts-and-paths.md#node-url)', () => {
    expect(endpoint(null)).toBe('https://crucible.example/node/base-sepolia/v2/<API_KEY>');
    expect(endpoint('node.example.com')).toBe('https://base-sepolia.node.example.com/v2/<API_KEY>');
  });

  it('shows the WebSocket endpoint beside it, on the same host and path', () => {
    expect(fact('webSocket', 'http://127.0.0.1:4321', null)).toBe('ws://127.0.0.1:4321/node/base-sepolia/v2/<API_KEY>');
    expect(fact('webSocket', 'https://crucible.example', null)).toBe('wss://crucible.example/node/base-sepolia/v2/<API_KEY>');
    expect(fact('webSocket', 'http://127.0.0.1:4321', 'node.example.com')).toBe('wss://base-sepolia.node.example.com/v2/<API_KEY>');
    const keys = networkFacts(network, '/faucets/base-sepolia', { siteOrigin: 'https://crucible.example', nodeDomain: null }).map((row) => row.key);
    expect(keys.indexOf('webSocket')).toBe(keys.indexOf('endpoint') + 1);
  });

  it('links the faucet unless the network is deprecated', () => {
    const node = { siteOrigin: 'https://crucible.example', nodeDomain: null };
    expect(networkFacts(network, '/faucets/base-sepolia', node).at(-1)).toEqual({
      key: 'faucet',
      value: '/faucets/base-sepolia',
      href: '/faucets/base-sepolia',
    });
    expect(networkFacts({ ...network, deprecated: true }, '/faucets/base-sepolia', node).at(-1)).toEqual({ key: 'faucet', value: null });
  });
});

describe('rpcMethodListing', () => {
  it('lists every registry method once, with its compute units, in the registry’s categories', () => {
    const listed = rpcMethodListing().flatMap(({ category, methods }) => methods.map((method) => ({ category, ...method })));
    expect(listed.map((method) => method.name).sort()).toEqual(rpcRegistry.methods.map((method) => method.name).sort());
    for (const method of rpcRegistry.methods) {
      expect(listed.find((entry) => entry.name === method.name)).toMatchObject({ category: method.category, computeUnits: method.computeUnits });
    }
  });

  it('anchors each method where the Markdown renderer puts its heading', () => {
    expect(rpcMethodAnchor('eth_getBlockByNumber')).toBe('eth_getblockbynumber');
    expect(rpcMethodAnchor('rpc.discover')).toBe('rpcdiscover');
    expect(rpcMethodAnchor('web3_sha3')).toBe('web3_sha3');
  });
});
