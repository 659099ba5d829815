import { RpcRequestError, TransactionRejectedRpcError } from 'viem';
import { describe, expect, it } from 'vitest';
import { classifyNodeError } from '../../../src/chain/node-errors.ts';

/** How viem surfaces a node's refusal of eth_sendRawTransaction: the node's text sits in a cause's `details`. */
function nodeRefusal(message: string): Error {
  const rpcError = new RpcRequestError({ body: {}, url: 'http://127.0.0.1:8545', error: { code: -32003, message } });
  return new TransactionRejectedRpcError(rpcError);
}

describe('classifyNodeError', () => {
  it('recognises a taken or stale nonce in the words of anvil and geth', () => {
    for (const message of [
      'nonce too low',
      'transaction already imported',
      'already known',
      'replacement transaction underpriced',
      'nonce too high',
      'Nonce too low: next nonce 4, tx nonce 3',
    ]) {
      expect(classifyNodeError(nodeRefusal(message)), message).toBe('nonce');
    }
  });

  it('recognises a wallet that cannot pay', () => {
    for (const message of ['Insufficient funds for gas * price + value', 'insufficient funds for gas * price + value: balance 0, tx cost 1']) {
      expect(classifyNodeError(nodeRefusal(message)), message).toBe('insufficient_funds');
    }
  });

  it('calls everything else other', () => {
    expect(classifyNodeError(nodeRefusal('max fee per gas less than block base fee'))).toBe('other');
    expect(classifyNodeError(new Error('fetch failed'))).toBe('other');
    expect(classifyNodeError(undefined)).toBe('other');
  });
});
