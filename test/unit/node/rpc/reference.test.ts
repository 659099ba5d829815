import { describe, expect, it } from 'vitest';
import { rpcCategories } from '../../../../src/node/rpc/method.ts';
import { jsonSchemaTypeText, rpcMethodReference } from '../../../../src/node/rpc/reference.ts';
import { rpcRegistry } from '../../../../src/node/rpc/registry.ts';

describe('rpcMethodReference: the registry as data for the docs pages', () => {
  const reference = rpcMethodReference();
  const all = reference.categories.flatMap((category) => category.methods);
  const entry = (name: string) => all.find((method) => method.name === name)!;

  it('lists every method once, grouped by category in the docs order', () => {
    expect(all.map((method) => method.name).sort()).toEqual(rpcRegistry.methods.map((method) => method.name).sort());
    expect(reference.categories.map((category) => category.name)).toEqual(rpcCategories);
  });

  it('writes param and result types as short readable strings', () => {
    expect(entry('eth_getBalance')).toMatchObject({
      category: 'Accounts and state',
      params: [
        { name: 'address', required: true, type: 'address' },
        { name: 'blockTag', required: false, type: 'block tag, number, hash or EIP-1898 object', default: 'latest' },
      ],
      result: { name: 'balance', type: 'hex quantity' },
      computeUnits: 19,
      cache: 'when-final',
      transport: 'any',
      answeredLocally: false,
      aliases: [],
    });
    expect(entry('eth_getBlockByNumber').result.type).toBe('block or null');
    expect(entry('eth_getLogs').params[0]).toMatchObject({ type: 'log filter' });
    expect(entry('eth_getLogs').result.type).toBe('list of log');
    expect(entry('eth_accounts')).toMatchObject({ answeredLocally: true, result: { type: 'list of address' } });
    expect(entry('eth_subscribe')).toMatchObject({ transport: 'websocket', notificationComputeUnits: 10 });
    for (const method of all) for (const param of method.params) expect(param.type, `${method.name} ${param.name}`).not.toBe('any');
  });

  it('states the blocked families and the limits', () => {
    expect(reference.blocked.map((family) => family.pattern)).toEqual([
      'eth_sendTransaction',
      'eth_sign',
      'personal_',
      'admin_',
      'debug_',
      'miner_',
      'txpool_',
      'anvil_',
      'hardhat_',
      'evm_',
      'engine_',
    ]);
    expect(reference.limits).toEqual({
      maxBodyBytes: 2_097_152,
      maxBatch: 100,
      maxLogsBlockRange: 10_000,
      maxTraceFilterBlockRange: 10_000,
      maxLogsFilterAddresses: 1_000,
      maxLogsFilterTopics: 1_000,
      maxSubscriptionsPerConnection: 100,
    });
  });

  it('names the alchemy_ alias of each vendor method', () => {
    expect(
      rpcMethodReference()
        .categories.find((category) => category.name === 'Token data')
        ?.methods.map((method) => [method.name, method.aliases]),
    ).toEqual([
      ['crucible_getTokenBalances', ['alchemy_getTokenBalances']],
      ['crucible_getTokenMetadata', ['alchemy_getTokenMetadata']],
      ['crucible_getTokenAllowance', ['alchemy_getTokenAllowance']],
      ['crucible_getAssetTransfers', ['alchemy_getAssetTransfers']],
    ]);
    const receipts = rpcMethodReference()
      .categories.find((category) => category.name === 'Blocks')
      ?.methods.find((method) => method.name === 'crucible_getTransactionReceipts');
    expect(receipts?.aliases).toEqual(['alchemy_getTransactionReceipts']);
    const transactions = rpcMethodReference().categories.find((category) => category.name === 'Transactions')?.methods;
    expect(transactions?.find((method) => method.name === 'crucible_sendPrivateTransaction')?.aliases).toEqual([
      'alchemy_sendPrivateTransaction',
      'eth_sendPrivateTransaction',
    ]);
  });
});

describe('jsonSchemaTypeText', () => {
  it('reads titles, unions, lists, constants and plain types', () => {
    expect(jsonSchemaTypeText({ title: 'address', type: 'string' })).toBe('address');
    expect(jsonSchemaTypeText({ anyOf: [{ title: 'block' }, { type: 'null' }] })).toBe('block or null');
    expect(jsonSchemaTypeText({ type: 'array', items: { type: 'boolean' } })).toBe('list of boolean');
    expect(jsonSchemaTypeText({ const: false })).toBe('false');
    expect(jsonSchemaTypeText({ enum: ['a', 'b'] })).toBe('"a" or "b"');
    expect(jsonSchemaTypeText({})).toBe('any');
  });
});
