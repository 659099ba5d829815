import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { defineRpcMethod } from '../../../../src/node/rpc/method.ts';
import { createRpcRegistry, findRpcMethod, isBlockedMethod, resolveMethodName, rpcRegistry } from '../../../../src/node/rpc/registry.ts';
import { type ValidateOptions, validateCall } from '../../../../src/node/rpc/validate.ts';

const docsUrl = 'https://crucible.test/rpc/ethereum-sepolia/';
const http: ValidateOptions = { docsUrl, transport: 'http' };

function refusal(method: string, params: unknown[] = [], options: ValidateOptions = http) {
  const checked = validateCall({ method, params }, options);
  if (checked.ok) throw new Error(`${method} was accepted`);
  return checked.failure;
}

describe('validateCall: which methods (docs/json-rpc.md#method-registry)', () => {
  it('refuses every blocked family with -32601 and the docs link, whatever the upstream supports', () => {
    const blocked = [
      'eth_sendTransaction',
      'eth_sign',
      'eth_signTransaction',
      'eth_signTypedData_v4',
      'personal_sign',
      'personal_unlockAccount',
      'admin_peers',
      'debug_getRawBlock',
      'debug_setHead',
      'debug_traceBlock',
      'debug_standardTraceBlockToFile',
      'miner_start',
      'txpool_content',
      'anvil_setBalance',
      'hardhat_impersonateAccount',
      'evm_mine',
      'engine_newPayloadV3',
    ];
    for (const method of blocked) {
      expect(isBlockedMethod(method), method).toBe(true);
      expect(refusal(method)).toEqual({
        reason: 'method_not_found',
        httpStatus: 200,
        error: { code: -32601, message: `Unsupported method: ${method}. See ${docsUrl}` },
      });
    }
  });

  it('blocks only the listed families', () => {
    for (const method of ['eth_sendRawTransaction', 'eth_call', 'eth_accounts', 'net_version', 'web3_sha3', 'eth_signal']) {
      expect(isBlockedMethod(method), method).toBe(method === 'eth_signal');
    }
  });

  it('serves of the debug_ family only the four read-only traces, and of trace_ only the four the registry lists', () => {
    const served = rpcRegistry.methods.map((method) => method.name).filter((name) => /^(debug|trace)_/.test(name));
    expect(served.sort()).toEqual(
      [
        'debug_traceBlockByHash',
        'debug_traceBlockByNumber',
        'debug_traceCall',
        'debug_traceTransaction',
        'trace_block',
        'trace_call',
        'trace_filter',
        'trace_transaction',
      ].sort(),
    );
    for (const name of served) expect(isBlockedMethod(name), name).toBe(false);
  });

  it('refuses methods that are not in the registry with -32601', () => {
    for (const method of [
      'eth_coinbase',
      'eth_mining',
      'trace_replayTransaction',
      'trace_rawTransaction',
      'ETH_BLOCKNUMBER',
      'eth_blockNumber ',
      'rpc.modules',
    ]) {
      expect(refusal(method).error).toEqual({ code: -32601, message: `Unsupported method: ${method}. See ${docsUrl}` });
    }
  });

  it('has no blocked method in the registry, and refuses to build one that has', () => {
    expect(rpcRegistry.methods.filter((method) => isBlockedMethod(method.name))).toEqual([]);
    const blocked = defineRpcMethod({
      name: 'debug_getRawBlock',
      summary: 's',
      description: 'd',
      category: 'Chain',
      params: [],
      result: { name: 'r', description: 'r', schema: z.string() },
      computeUnits: 1,
    });
    expect(() => createRpcRegistry([blocked])).toThrow(/debug_getRawBlock is in a blocked family/);
  });

  it('refuses subscriptions over HTTP with -32601 saying they need a WebSocket, and takes them over one', () => {
    for (const method of ['eth_subscribe', 'eth_unsubscribe']) {
      expect(refusal(method, method === 'eth_subscribe' ? ['newHeads'] : ['0x1'])).toMatchObject({
        httpStatus: 200,
        error: { code: -32601, message: expect.stringMatching(new RegExp(`^${method} needs a WebSocket connection.*See ${docsUrl}`)) },
      });
    }
    expect(validateCall({ method: 'eth_subscribe', params: ['newHeads'] }, { docsUrl, transport: 'websocket' })).toMatchObject({
      ok: true,
      params: ['newHeads'],
    });
  });

  it('returns the method and its normalized params for a valid call', () => {
    const checked = validateCall({ method: 'eth_getBlockByNumber', params: ['0x10'] }, http);
    expect(checked).toEqual({ ok: true, method: findRpcMethod('eth_getBlockByNumber'), params: ['0x10', false] });
  });
});

describe('alchemy_ names (docs/json-rpc.md#vendor-methods)', () => {
  it('resolves alchemy_<x> to crucible_<x> only when crucible_<x> is registered', () => {
    expect(resolveMethodName('alchemy_getTokenMetadata')).toBe('crucible_getTokenMetadata');
    expect(resolveMethodName('alchemy_getTokenBalances')).toBe('crucible_getTokenBalances');
    expect(resolveMethodName('alchemy_getAssetTransfers')).toBe('crucible_getAssetTransfers');
    expect(resolveMethodName('alchemy_notAMethod')).toBe('alchemy_notAMethod');
    expect(resolveMethodName('eth_chainId')).toBe('eth_chainId');
  });

  it('validates an alias call as the vendor method, and refuses an alias of nothing with its own name', () => {
    const address = `0x${'ab'.repeat(20)}`;
    expect(validateCall({ method: 'alchemy_getTokenMetadata', params: [address] }, http)).toEqual({
      ok: true,
      method: findRpcMethod('crucible_getTokenMetadata'),
      params: [address],
    });
    expect(refusal('alchemy_getTokenMetadata', ['0x1']).error).toEqual({
      code: -32602,
      message: 'invalid params: [0] contractAddress must be a 20-byte address: "0x" and 40 hex digits',
    });
    expect(refusal('alchemy_notAMethod', [address]).error.message).toBe(`Unsupported method: alchemy_notAMethod. See ${docsUrl}`);
  });

  it('refuses a token spec other than "erc20", "NATIVE_TOKEN" or 1 to 100 contracts, naming the param', () => {
    const address = `0x${'ab'.repeat(20)}`;
    for (const spec of ['DEFAULT_TOKENS', 5, Array.from({ length: 101 }, () => address)]) {
      expect(refusal('alchemy_getTokenBalances', [address, spec]).error.message).toMatch(
        /^invalid params: \[1\] spec must be "erc20", "NATIVE_TOKEN" or a list of 1 to 100 contract addresses/,
      );
    }
    expect(refusal('alchemy_getTokenBalances', [address, [address, '0x1']]).error.message).toBe(
      'invalid params: [1] spec[1] must be a 20-byte address: "0x" and 40 hex digits',
    );
    expect(refusal('crucible_getTokenBalances', [address, 'erc20', { maxCount: 0 }]).error.message).toBe(
      'invalid params: [2] options.maxCount must be an integer from 1 to 100',
    );
    expect(refusal('crucible_getTokenBalances', [address, []]).error.message).toBe('invalid params: [1] spec must list at least one contract address');
    expect(refusal('crucible_getTokenBalances', [address, 'erc20', { pageSize: 5 }]).error.message).toBe(
      'invalid params: [2] options has no field pageSize: only pageKey and maxCount',
    );
    expect(refusal('crucible_getTokenBalances', [address, 'erc20', { pageKey: 'zz' }]).error.message).toBe(
      'invalid params: [2] options.pageKey must be the pageKey of an earlier answer of this method',
    );
    expect(refusal('crucible_getTokenBalances', ['0xabc']).error.code).toBe(-32602);
  });
});
