import { Ajv } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { openRpcDocument } from '../../../../src/node/rpc/openrpc.ts';
import { rpcRegistry } from '../../../../src/node/rpc/registry.ts';
import { loadNetworks } from '../../../../src/site/read-content.ts';
import type { NetworkRecord } from '../../../../src/site/records.ts';
import { validateOpenRpc } from '../../../support/openrpc-validator.ts';

const documentFor = (network: Pick<NetworkRecord, 'id' | 'name' | 'chainId'>) =>
  openRpcDocument({
    network: { id: network.id, name: network.name, chainId: network.chainId },
    serverUrl: `https://${network.id}.node.crucible.test/v2/demo`,
    docsUrl: `https://crucible.test/rpc/${network.id}/`,
  });

describe('openRpcDocument', () => {
  let networks: NetworkRecord[];
  beforeAll(async () => {
    networks = await loadNetworks('.');
  });

  it('is a valid OpenRPC document for every network of content/networks', () => {
    expect(networks.length).toBeGreaterThan(20);
    for (const network of networks) {
      const valid = validateOpenRpc(documentFor(network));
      expect(validateOpenRpc.errors ?? [], network.id).toEqual([]);
      expect(valid).toBe(true);
    }
  });

  it('is refused by the meta-schema when it breaks it (the check can fail)', () => {
    const document = documentFor({ id: 'ethereum-sepolia', name: 'Ethereum Sepolia', chainId: 11155111 });
    const [first, ...rest] = document.methods;
    expect(validateOpenRpc({ ...document, methods: [{ ...first, params: [{ name: 'x', schema: { type: 7 } }] }, ...rest] })).toBe(false);
    expect(validateOpenRpc({ ...document, methods: [{ ...first, cost: 1 }, ...rest] })).toBe(false);
    expect(validateOpenRpc({ ...document, openrpc: '9.9.9' })).toBe(false);
    expect(validateOpenRpc({ ...document, servers: [{ name: 'x', url: 'https://x.test/v2/<API_KEY>' }] })).toBe(false);
  });

  it('lists every registry method once with its params, result, tag and compute units', () => {
    const document = documentFor({ id: 'base-sepolia', name: 'Base Sepolia', chainId: 84532 });
    expect(document.openrpc).toBe('1.2.6');
    expect(document.info).toMatchObject({ title: 'Crucible JSON-RPC: Base Sepolia', version: '1.0.0', description: expect.stringContaining('chain id 84532') });
    expect(document.servers).toEqual([{ name: 'base-sepolia', url: 'https://base-sepolia.node.crucible.test/v2/demo', summary: 'The Base Sepolia endpoint.' }]);
    expect(document.externalDocs).toMatchObject({ url: 'https://crucible.test/rpc/base-sepolia/' });
    expect(document.methods.map((method) => method.name)).toEqual(rpcRegistry.methods.map((method) => method.name));
    expect(document.methods.map((method) => method.name)).toContain('rpc.discover');

    const getBalance = document.methods.find((method) => method.name === 'eth_getBalance')!;
    expect(getBalance).toMatchObject({
      tags: [{ name: 'Accounts and state' }],
      paramStructure: 'by-position',
      'x-compute-units': 19,
      'x-cache': 'when-final',
      'x-transport': 'any',
      result: { name: 'balance', schema: { title: 'hex quantity', type: 'string' } },
    });
    expect(getBalance.params).toEqual([
      expect.objectContaining({ name: 'address', required: true, schema: expect.objectContaining({ pattern: '^0x[0-9a-fA-F]{40}$' }) }),
      expect.objectContaining({ name: 'blockTag', required: false, schema: expect.objectContaining({ default: 'latest', anyOf: expect.any(Array) }) }),
    ]);
    expect(document.methods.find((method) => method.name === 'eth_subscribe')).toMatchObject({
      'x-compute-units-per-notification': 10,
      'x-transport': 'websocket',
    });
  });

  it('uses only valid JSON Schemas (strict draft-07) for params and results', () => {
    const strict = new Ajv({ strict: true });
    const document = documentFor({ id: 'ethereum-sepolia', name: 'Ethereum Sepolia', chainId: 11155111 });
    for (const method of document.methods) {
      const descriptors = [...(method.params as Array<{ name: string; schema: object }>), method.result as { name: string; schema: object }];
      for (const descriptor of descriptors) expect(() => strict.compile(descriptor.schema), `${method.name} ${descriptor.name}`).not.toThrow();
    }
  });

  it('says nothing of a chain id where the network has none', () => {
    const document = documentFor({ id: 'starknet-sepolia', name: 'Starknet Sepolia', chainId: null });
    expect(document.info).toMatchObject({ description: expect.not.stringContaining('chain id') });
  });
});
