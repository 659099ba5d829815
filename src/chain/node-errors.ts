import {
  BaseError,
  ExecutionRevertedError,
  HttpRequestError,
  InsufficientFundsError,
  NonceTooHighError,
  NonceTooLowError,
  SocketClosedError,
  TimeoutError,
} from 'viem';
import { getNodeError } from 'viem/utils';

// Why a node refused a transaction (`eth_sendRawTransaction`, or `eth_estimateGas` for it), as
// viem's typed node errors say: its actions (estimateGas) already carry one in the error's
// causes; a raw `eth_sendRawTransaction` carries the node's words, which viem's getNodeError
// reads as its own actions would (geth "already known" and anvil "transaction already imported"
// are NonceTooLowError).

export type NodeErrorKind = 'nonce' | 'insufficient_funds' | 'reverted' | 'other';

/** Refusals viem has no typed error for, which also mean that the nonce is taken. */
const NONCE_TAKEN = /replacement transaction underpriced|invalid nonce|nonce has already been used/i;

export function classifyNodeError(error: unknown): NodeErrorKind {
  if (!(error instanceof BaseError)) return 'other';
  const nodeError = error.walk((cause) => kindOf(cause) !== 'other') ?? getNodeError(error, {});
  const kind = kindOf(nodeError);
  if (kind === 'other' && NONCE_TAKEN.test(error.details)) return 'nonce';
  return kind;
}

function kindOf(error: unknown): NodeErrorKind {
  if (error instanceof NonceTooLowError || error instanceof NonceTooHighError) return 'nonce';
  if (error instanceof InsufficientFundsError) return 'insufficient_funds';
  // The recipient's code refused the call (`eth_estimateGas` of a transfer to it).
  if (error instanceof ExecutionRevertedError) return 'reverted';
  return 'other';
}

/**
 * True when the request got no JSON-RPC answer at all (connection refused or lost, timeout, an
 * HTTP error status): whatever it asked for may or may not have happened on the node.
 */
export function isTransportFailure(error: unknown): boolean {
  if (!(error instanceof BaseError)) return error instanceof TypeError; // fetch's own "fetch failed"
  return error.walk((cause) => cause instanceof HttpRequestError || cause instanceof TimeoutError || cause instanceof SocketClosedError) !== null;
}
