import { CrucibleError } from '../errors/crucible-error.ts';
import { errorBody } from '../errors/error-body.ts';
import type { RpcErrorObject, RpcFailure } from '../errors/json-rpc.ts';

// A tool that fails answers an MCP tool error (docs/mcp.md#tool-errors): `isError: true` and one text,
// the Error body `{ error: { code, message, hint, status, documentation_url } }` of the one error
// table (src/errors/codes.ts), never a stack. A keyed REST call's refusal is its Error body as the
// door answered it; a JSON-RPC call's names its table code and adds `jsonrpc` (the code and data
// JSON-RPC answers); the faucet's FaucetError gives its `statusCode` as the code.

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  isError?: boolean;
}

type ToolErrorBody = { error: Record<string, unknown> };

function toolError(body: ToolErrorBody): ToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
}

/** An error of the MCP server's own (an input no tool takes, a cursor of another call). */
export function ownToolError(error: CrucibleError, documentationUrl: string): ToolResult {
  return toolError(errorBody(error, documentationUrl));
}

/** The gateway's refusal: the row's code, message and hint, and what JSON-RPC answers. */
export function rpcToolError(failure: RpcFailure, documentationUrl: string): ToolResult {
  // JSON-RPC's message is the row's sentence without its full stop (src/errors/json-rpc.ts).
  const sentence = /[.!?]$/.test(failure.error.message) ? failure.error.message : `${failure.error.message}.`;
  const { error } = errorBody(new CrucibleError(failure.reason, sentence), documentationUrl);
  return toolError({ error: { ...error, code: failure.reason, jsonrpc: failure.error } });
}

/** The node's own error for a valid call (a revert): relayed, with its JSON-RPC code and data. */
export function nodeToolError(nodeError: RpcErrorObject, documentationUrl: string): ToolResult {
  const { error } = errorBody(new CrucibleError('node_error', nodeError.message), documentationUrl);
  return toolError({ error: { ...error, code: 'node_error', jsonrpc: nodeError } });
}

/** A site API answer that is not a 200: the Error body as it is, or the FaucetError's `statusCode` as the code. */
export function answeredToolError(status: number, body: unknown, documentationUrl: string): ToolResult {
  const error = (body as { error?: unknown } | null)?.error;
  if (error !== null && typeof error === 'object') return toolError({ error: error as Record<string, unknown> });
  const faucet = body as { error?: string; statusCode?: string; hint?: string; message?: string } | null;
  if (typeof faucet?.error === 'string') {
    const { error: text, statusCode, hint, message, ...members } = faucet;
    return toolError({
      error: {
        code: statusCode ?? 'internal_error',
        message: text,
        ...(hint ? { hint } : {}),
        ...(message ? { detail: message } : {}),
        status,
        documentation_url: documentationUrl,
        ...members,
      },
    });
  }
  return ownToolError(new CrucibleError('internal_error'), documentationUrl);
}
