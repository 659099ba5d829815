import { describe, expect, it } from 'vitest';
import { nodeTargetOf, nodeUrlOf } from '../../../src/node/node-url.ts';

describe('nodeTargetOf (docs/hosts-and-paths.md#how-the-server-routes-a-request: both forms of {node_url})', () => {
  it('reads the path form on any host', () => {
    expect(nodeTargetOf('localhost:4321', '/node/base-sepolia/v2/abc', null)).toEqual({ kind: 'rpc', network: 'base-sepolia', key: 'abc' });
    expect(nodeTargetOf(undefined, '/node/base-sepolia/v2/abc/', null)).toEqual({ kind: 'rpc', network: 'base-sepolia', key: 'abc' });
    expect(nodeTargetOf(undefined, '/node/base-sepolia/v2', null)).toEqual({ kind: 'rpc', network: 'base-sepolia', key: '' });
    expect(nodeTargetOf(undefined, '/node/base-sepolia/openrpc.json', null)).toEqual({ kind: 'openrpc', network: 'base-sepolia' });
    expect(nodeTargetOf(undefined, '/node/base-sepolia/v2/abc/extra', null)).toEqual({ kind: 'unknown-path', network: 'base-sepolia' });
    expect(nodeTargetOf(undefined, '/node/base-sepolia', null)).toEqual({ kind: 'unknown-path', network: 'base-sepolia' });
  });

  it('answers JSON-RPC at /nft/v3/<key> too, where alchemy-sdk sends its nft transfer helpers’ calls; the methods below it are the REST door’s', () => {
    expect(nodeTargetOf(undefined, '/node/base-sepolia/nft/v3/abc', null)).toEqual({ kind: 'rpc', network: 'base-sepolia', key: 'abc' });
    expect(nodeTargetOf(undefined, '/node/base-sepolia/nft/v3/abc/', null)).toEqual({ kind: 'rpc', network: 'base-sepolia', key: 'abc' });
    expect(nodeTargetOf(undefined, '/node/base-sepolia/nft/v3/abc/getNFTsForOwner', null)).toEqual({ kind: 'unknown-path', network: 'base-sepolia' });
    expect(nodeTargetOf(undefined, '/node/base-sepolia/nft/v2/abc', null)).toEqual({ kind: 'unknown-path', network: 'base-sepolia' });
  });

  it('leaves the site’s own paths alone', () => {
    expect(nodeTargetOf('localhost', '/', null)).toBeNull();
    expect(nodeTargetOf('localhost', '/nodes/x', null)).toBeNull();
    expect(nodeTargetOf('localhost', '/node/', null)).toBeNull();
    expect(nodeTargetOf('localhost', '/api/ip', 'node.example.com')).toBeNull();
  });

  it('reads the domain form only under NODE_DOMAIN, any path being the node’s', () => {
    expect(nodeTargetOf('base-sepolia.node.example.com', '/v2/abc', 'node.example.com')).toEqual({ kind: 'rpc', network: 'base-sepolia', key: 'abc' });
    expect(nodeTargetOf('Base-Sepolia.NODE.example.com:443', '/v2/abc', 'node.example.com')).toEqual({ kind: 'rpc', network: 'base-sepolia', key: 'abc' });
    expect(nodeTargetOf('base-sepolia.node.example.com', '/about', 'node.example.com')).toEqual({ kind: 'unknown-path', network: 'base-sepolia' });
    expect(nodeTargetOf('a.b.node.example.com', '/v2/abc', 'node.example.com')).toBeNull();
    expect(nodeTargetOf('base-sepolia.node.example.com', '/v2/abc', null)).toBeNull();
    expect(nodeTargetOf('evilnode.example.com', '/v2/abc', 'node.example.com')).toBeNull();
  });

  it('routes what pages show as {node_url} (src/site/urls.ts) back to its network', () => {
    for (const nodeDomain of [null, 'node.example.com']) {
      const url = new URL(`${nodeUrlOf('base-sepolia', { siteOrigin: 'http://localhost:4321', nodeDomain })}/v2/abc`);
      expect(nodeTargetOf(url.host, url.pathname, nodeDomain)).toEqual({ kind: 'rpc', network: 'base-sepolia', key: 'abc' });
    }
  });
});
