import { EstimateGasExecutionError, HttpRequestError, InvalidInputRpcError, RpcRequestError, TransactionRejectedRpcError } from 'viem';
import { getEstimateGasError } from 'viem/utils';
import { describe, expect, it } from 'vitest';
import { classifyNodeError } from '../../../src/chain/node-errors.ts';

// The errors as viem hands them over from a real node (anvil's words and codes; geth answers
// -32000, which viem calls InvalidInputRpcError).

/** A refusal of eth_sendRawTransaction: the node's text sits in the RPC error's `details`. */
function nodeRefusal(message: string, code = -32003): Error {
  const rpcError = new RpcRequestError({ body: {}, url: 'http://127.0.0.1:8545', error: { code, message } });
  return code === -32000 ? new InvalidInputRpcError(rpcError) : new TransactionRejectedRpcError(rpcError);
}

/** A failed eth_estimateGas, which viem's estimateGas has already typed. */
function estimateRefusal(message: string, code: number): Error {
  const rpcError = new RpcRequestError({ body: {}, url: 'http://127.0.0.1:8545', error: { code, message } });
  return getEstimateGasError(rpcError, {});
}

describe('classifyNodeError', () => {
  it('recognises a taken or stale nonce in the words of anvil and geth', () => {
    for (const message of [
      'nonce too low',
      'transaction already imported',
      'replacement transaction underpriced',
      'nonce too high',
      'Nonce too low: next nonce 4, tx nonce 3',
    ]) {
      expect(classifyNodeError(nodeRefusal(message)), message).toBe('nonce');
    }
    expect(classifyNodeError(nodeRefusal('already known', -32000))).toBe('nonce');
    expect(classifyNodeError(nodeRefusal('replacement transaction underpriced', -32000))).toBe('nonce');
  });

  it('recognises a wallet that cannot pay', () => {
    for (const message of ['Insufficient funds for gas * price + value', 'insufficient funds for gas * price + value: balance 0, tx cost 1']) {
      expect(classifyNodeError(nodeRefusal(message)), message).toBe('insufficient_funds');
    }
    expect(classifyNodeError(estimateRefusal('insufficient funds for transfer', -32000))).toBe('insufficient_funds');
  });

  it('recognises a recipient whose code reverts the estimate', () => {
    const reverted = estimateRefusal('execution reverted', 3);
    expect(reverted).toBeInstanceOf(EstimateGasExecutionError);
    expect(classifyNodeError(reverted)).toBe('reverted');
    expect(classifyNodeError(estimateRefusal('execution reverted: not accepted', -32000))).toBe('reverted');
  });

  it('calls everything else other', () => {
    expect(classifyNodeError(nodeRefusal('max fee per gas less than block base fee'))).toBe('other');
    expect(classifyNodeError(new HttpRequestError({ url: 'http://127.0.0.1:8545', details: 'fetch failed' }))).toBe('other');
    expect(classifyNodeError(new Error('fetch failed'))).toBe('other');
    expect(classifyNodeError(undefined)).toBe('other');
  });
});
