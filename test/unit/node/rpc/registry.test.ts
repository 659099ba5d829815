import { keccak256, toHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { rpcCategories } from '../../../../src/node/rpc/method.ts';
import { findRpcMethod, rpcRegistry } from '../../../../src/node/rpc/registry.ts';

const names = rpcRegistry.methods.map((method) => method.name);
const noDocument = () => {
  throw new Error('no document here');
};

describe('the method registry (docs/json-rpc.md#method-registry)', () => {
  it('supports the standard eth_ reads and broadcast, net_, web3_ and rpc.discover', () => {
    const required = [
      'eth_blockNumber',
      'eth_chainId',
      'eth_getBalance',
      'eth_getCode',
      'eth_getStorageAt',
      'eth_getTransactionCount',
      'eth_call',
      'eth_estimateGas',
      'eth_gasPrice',
      'eth_maxPriorityFeePerGas',
      'eth_feeHistory',
      'eth_blobBaseFee',
      'eth_getBlockByNumber',
      'eth_getBlockByHash',
      'eth_getBlockTransactionCountByNumber',
      'eth_getBlockTransactionCountByHash',
      'eth_getUncleCountByBlockNumber',
      'eth_getUncleCountByBlockHash',
      'eth_getTransactionByHash',
      'eth_getTransactionByBlockNumberAndIndex',
      'eth_getTransactionByBlockHashAndIndex',
      'eth_getTransactionReceipt',
      'eth_getBlockReceipts',
      'eth_getLogs',
      'eth_getProof',
      'eth_syncing',
      'eth_protocolVersion',
      'eth_sendRawTransaction',
      'eth_newFilter',
      'eth_newBlockFilter',
      'eth_newPendingTransactionFilter',
      'eth_getFilterChanges',
      'eth_getFilterLogs',
      'eth_uninstallFilter',
      'eth_subscribe',
      'eth_unsubscribe',
      'eth_accounts',
      'net_version',
      'net_listening',
      'net_peerCount',
      'web3_clientVersion',
      'web3_sha3',
      'rpc.discover',
      'crucible_getAssetTransfers',
      'crucible_getTokenBalances',
      'crucible_getTokenMetadata',
      'crucible_getTokenAllowance',
      'crucible_getTransactionReceipts',
      'crucible_sendPrivateTransaction',
      'crucible_cancelPrivateTransaction',
      'debug_traceTransaction',
      'debug_traceCall',
      'debug_traceBlockByNumber',
      'debug_traceBlockByHash',
      'trace_block',
      'trace_transaction',
      'trace_call',
      'trace_filter',
      'crucible_simulateAssetChanges',
      'crucible_simulateAssetChangesBundle',
      'crucible_simulateExecution',
      'crucible_simulateExecutionBundle',
    ];
    expect([...names].sort()).toEqual([...required].sort());
    expect(new Set(names).size).toBe(names.length);
  });

  it('gives every method a one-line summary, a paragraph, a known category and a result with a JSON Schema', () => {
    for (const method of rpcRegistry.methods) {
      expect(method.summary, method.name).toMatch(/^[A-Z].*\.$/);
      expect(method.summary, method.name).not.toContain('\n');
      expect(method.description.length, method.name).toBeGreaterThan(method.summary.length / 2);
      expect(rpcCategories, method.name).toContain(method.category);
      expect(method.result.name, method.name).toBeTruthy();
      expect(method.result.description, method.name).toBeTruthy();
      expect(Object.keys(method.result.schema).length, method.name).toBeGreaterThan(0);
      for (const param of method.params) expect(param.description, `${method.name} ${param.name}`).toBeTruthy();
    }
  });

  it('costs compute units as documented: positive, except the node-status and discovery methods', () => {
    const free = rpcRegistry.methods.filter((method) => method.computeUnits === 0).map((method) => method.name);
    expect(free.sort()).toEqual(['eth_chainId', 'eth_protocolVersion', 'eth_syncing', 'net_listening', 'net_peerCount', 'net_version', 'rpc.discover']);
    for (const method of rpcRegistry.methods) expect(Number.isInteger(method.computeUnits) && method.computeUnits >= 0, method.name).toBe(true);
    const cost = (name: string) => findRpcMethod(name)!.computeUnits;
    expect(
      Object.fromEntries(
        [
          'eth_blockNumber',
          'eth_getBalance',
          'eth_call',
          'eth_getLogs',
          'eth_sendRawTransaction',
          'eth_getTransactionReceipt',
          'eth_getBlockByNumber',
          'eth_estimateGas',
          'eth_subscribe',
        ].map((name) => [name, cost(name)]),
      ),
    ).toEqual({
      eth_blockNumber: 10,
      eth_getBalance: 19,
      eth_call: 26,
      eth_getLogs: 75,
      eth_sendRawTransaction: 250,
      eth_getTransactionReceipt: 15,
      eth_getBlockByNumber: 16,
      eth_estimateGas: 87,
      eth_subscribe: 10,
    });
    expect(findRpcMethod('eth_subscribe')!.notificationComputeUnits).toBe(10);
    expect(rpcRegistry.methods.filter((method) => method.notificationComputeUnits !== undefined).map((method) => method.name)).toEqual(['eth_subscribe']);
  });

  it('retries reads on another upstream, never the broadcast or calls bound to one upstream', () => {
    const notRetried = rpcRegistry.methods.filter((method) => !method.idempotent).map((method) => method.name);
    expect(notRetried.sort()).toEqual([
      'crucible_cancelPrivateTransaction',
      'crucible_sendPrivateTransaction',
      'eth_getFilterChanges',
      'eth_getFilterLogs',
      'eth_sendRawTransaction',
      'eth_subscribe',
      'eth_uninstallFilter',
      'eth_unsubscribe',
    ]);
    const affinity = Object.fromEntries(rpcRegistry.methods.filter((method) => method.filterAffinity).map((method) => [method.name, method.filterAffinity]));
    expect(affinity).toEqual({
      eth_newFilter: 'creates',
      eth_newBlockFilter: 'creates',
      eth_newPendingTransactionFilter: 'creates',
      eth_getFilterChanges: 'uses',
      eth_getFilterLogs: 'uses',
      eth_uninstallFilter: 'uses',
    });
  });

  it('calls a method by its aliases: the eth_ names alchemy-sdk sends for private transactions, and alchemy_', () => {
    for (const name of ['eth_sendPrivateTransaction', 'alchemy_sendPrivateTransaction', 'crucible_sendPrivateTransaction']) {
      expect(findRpcMethod(name)?.name).toBe('crucible_sendPrivateTransaction');
    }
    expect(findRpcMethod('eth_cancelPrivateTransaction')?.name).toBe('crucible_cancelPrivateTransaction');
    expect(findRpcMethod('crucible_eth_sendPrivateTransaction')).toBeUndefined();
  });

  it('serves subscriptions over WebSocket only', () => {
    expect(rpcRegistry.methods.filter((method) => method.transport === 'websocket').map((method) => method.name)).toEqual(['eth_subscribe', 'eth_unsubscribe']);
  });

  it('answers eth_accounts, web3_sha3 and rpc.discover itself', () => {
    expect(rpcRegistry.methods.filter((method) => method.answer).map((method) => method.name)).toEqual(['web3_sha3', 'eth_accounts', 'rpc.discover']);
    expect(findRpcMethod('eth_accounts')!.answer!([], { openRpcDocument: noDocument })).toEqual([]);
    expect(findRpcMethod('web3_sha3')!.answer!(['0x68656c6c6f'], { openRpcDocument: noDocument })).toBe(keccak256(toHex('hello')));
    expect(findRpcMethod('rpc.discover')!.answer!([], { openRpcDocument: () => ({ openrpc: '1.2.6' }) })).toEqual({ openrpc: '1.2.6' });
  });
});
