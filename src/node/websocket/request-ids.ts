import { exceedsJsonDepth } from '../../http/json-depth.ts';
import type { RpcErrorObject } from '../../errors/json-rpc.ts';
import { rpcErrors } from '../rpc/errors.ts';
import type { RpcReply } from '../rpc/jsonrpc.ts';

// Over a WebSocket, clients match answers to requests by id alone: an answer with id null leaves
// a viem or ethers call waiting until it times out. The gateway refuses a message whose calls are
// all valid but over a limit (its rate, its quota, or a cost past its burst) as a whole, with id
// null (right over HTTP, where the response is the answer to that request). Here that refusal is
// given the request's id, or for a batch repeated once per request that has an id.
//
// A message refused before it was read (its least cost did not fit the caller's bucket) paid for
// nothing: its ids are read only when it is short and shallow, which costs less than receiving it.

type RpcResponse = Exclude<RpcReply['body'], null | unknown[]>;

const isRequestId = (value: unknown): value is string | number => typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

function idOf(request: unknown): string | number | undefined {
  if (request === null || typeof request !== 'object' || Array.isArray(request)) return undefined;
  const id = (request as { id?: unknown }).id;
  return isRequestId(id) ? id : undefined;
}

/** A refusal over one of the caller's limits: a 429, or a cost past a bucket's burst; either names the limit in `data`. */
function isOverLimit(error: RpcErrorObject): boolean {
  const { data } = error;
  return error.code === rpcErrors.rate_limited.code || (typeof data === 'object' && data !== null && !Array.isArray(data) && typeof data.limit === 'string');
}

/** `body` as sent to a WebSocket client: unchanged unless it is a refusal of the whole message `text` over a limit. */
export function withRequestIds(text: string, body: RpcResponse | RpcResponse[]): RpcResponse | RpcResponse[] {
  if (Array.isArray(body) || body.id !== null || !('error' in body) || !isOverLimit(body.error)) return body;
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch {
    return body;
  }
  if (!Array.isArray(request)) {
    const id = idOf(request);
    return id === undefined ? body : { ...body, id };
  }
  const answers = request.flatMap((item) => {
    const id = idOf(item);
    return id === undefined ? [] : [{ ...body, id }];
  });
  return answers.length > 0 ? answers : body;
}

/** The longest refused-before-read message whose ids are read (characters). */
const MAX_UNPAID_READ_CHARS = 4096;

/** The refusal of a message not read (nothing was paid for it), under its ids when it is short and nested within `maxDepth`. */
export function unpaidRefusal(text: string, error: RpcErrorObject, maxDepth: number): RpcResponse | RpcResponse[] {
  const body: RpcResponse = { jsonrpc: '2.0', id: null, error };
  if (text.length > MAX_UNPAID_READ_CHARS || exceedsJsonDepth(text, maxDepth)) return body;
  return withRequestIds(text, body);
}
