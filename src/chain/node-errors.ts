import { BaseError, HttpRequestError, SocketClosedError, TimeoutError } from 'viem';

// Why a node refused a transaction (`eth_sendRawTransaction`, or `eth_estimateGas` for it).
// Nodes only say so in prose, and the prose differs (geth: "already known", anvil: "transaction
// already imported", "Insufficient funds ..."), so this matches the messages viem knows
// (errors/node.ts `nodeMessage`), case-insensitively, plus the replacement rule, which is also
// a sign that the nonce is taken.

export type NodeErrorKind = 'nonce' | 'insufficient_funds' | 'reverted' | 'other';

const NONCE_TROUBLE = /nonce too low|nonce too high|invalid nonce|already known|already imported|replacement transaction underpriced|nonce has already been used/i;
const INSUFFICIENT_FUNDS = /insufficient funds|insufficient balance|exceeds transaction sender account balance/i;
/** The recipient's code refused the call (`eth_estimateGas` of a transfer to it). */
const REVERTED = /execution reverted|revert/i;

export function classifyNodeError(error: unknown): NodeErrorKind {
  const text = errorTexts(error).join('\n');
  if (NONCE_TROUBLE.test(text)) return 'nonce';
  if (INSUFFICIENT_FUNDS.test(text)) return 'insufficient_funds';
  if (REVERTED.test(text)) return 'reverted';
  return 'other';
}

/** Messages along the cause chain (viem nests the node's text in `details` of a cause). */
function errorTexts(error: unknown): string[] {
  const texts: string[] = [];
  const seen = new Set<unknown>();
  for (let current = error; current && typeof current === 'object' && !seen.has(current); current = (current as { cause?: unknown }).cause) {
    seen.add(current);
    for (const key of ['details', 'shortMessage', 'message'] as const) {
      const value = (current as Record<string, unknown>)[key];
      if (typeof value === 'string') texts.push(value);
    }
  }
  if (typeof error === 'string') texts.push(error);
  return texts;
}

/**
 * True when the request got no JSON-RPC answer at all (connection refused or lost, timeout, an
 * HTTP error status): whatever it asked for may or may not have happened on the node.
 */
export function isTransportFailure(error: unknown): boolean {
  if (!(error instanceof BaseError)) return error instanceof TypeError; // fetch's own "fetch failed"
  return error.walk((cause) => cause instanceof HttpRequestError || cause instanceof TimeoutError || cause instanceof SocketClosedError) !== null;
}
