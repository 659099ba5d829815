import { errorCodes, type ErrorCode, type ErrorRow } from './codes.ts';
import type { CrucibleError, JsonValue } from './crucible-error.ts';

// JSON-RPC errors (docs/errors.md#json-rpc-errors), the wire shape of `{node_url}/v2/<key>` and its
// WebSocket: the error object `{ code, message, data? }` and the HTTP status a single request
// answers with, both from the error's row. A JSON-RPC message is a phrase, as nodes write theirs:
// the sentence's final full stop is dropped ("Invalid API key"; the Error body says "Invalid API key.").

/** The error member of a JSON-RPC response. */
export interface RpcErrorObject {
  code: number;
  message: string;
  data?: JsonValue;
}

/** A refusal by the gateway as JSON-RPC answers it: its code, the HTTP status of a single request, and the error object. */
export interface RpcFailure {
  reason: ErrorCode;
  httpStatus: number;
  error: RpcErrorObject;
}

/** An error without a JSON-RPC code of its own answers as an internal error. */
const INTERNAL_ERROR = -32603;

export function toRpcFailure(error: CrucibleError): RpcFailure {
  const row: ErrorRow = errorCodes[error.code];
  const object: RpcErrorObject = { code: row.rpc?.code ?? INTERNAL_ERROR, message: rpcMessage(error) };
  if (error.data !== undefined) object.data = error.data;
  return { reason: error.code, httpStatus: row.rpc?.status ?? row.status, error: object };
}

/** The error's sentence as a JSON-RPC message (also a WebSocket close reason): without its final full stop. */
function rpcMessage(error: Pick<CrucibleError, 'message'>): string {
  return error.message.endsWith('.') ? error.message.slice(0, -1) : error.message;
}
