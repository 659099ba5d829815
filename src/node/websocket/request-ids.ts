import { rpcErrors } from '../rpc/errors.ts';
import type { RpcReply } from '../rpc/jsonrpc.ts';

// Over a WebSocket, clients match answers to requests by id alone: an answer with id null leaves
// a viem or ethers call waiting until it times out. The gateway refuses a message whose calls are
// all valid but over a limit as a whole, with id null (right over HTTP, where the response is the
// answer to that request). Here that refusal is given the request's id, or for a batch repeated
// once per request that has an id.

type RpcResponse = Exclude<RpcReply['body'], null | unknown[]>;

const isRequestId = (value: unknown): value is string | number => typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

function idOf(request: unknown): string | number | undefined {
  if (request === null || typeof request !== 'object' || Array.isArray(request)) return undefined;
  const id = (request as { id?: unknown }).id;
  return isRequestId(id) ? id : undefined;
}

/** `body` as sent to a WebSocket client: unchanged unless it is a rate-limit refusal of the whole message `text`. */
export function withRequestIds(text: string, body: RpcResponse | RpcResponse[]): RpcResponse | RpcResponse[] {
  if (Array.isArray(body) || body.id !== null || !('error' in body) || body.error.code !== rpcErrors.rate_limited.code) return body;
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
