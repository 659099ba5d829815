// The smallest JSON-RPC client over fetch: what the benchmark's fill and its bare eth_getLogs loop
// use, so the "limit" side does no more than send, wait and parse.

interface JsonRpcAnswer {
  id?: number;
  result?: unknown;
  error?: { code: number; message: string };
}

class JsonRpcError extends Error {
  override name = 'JsonRpcError';
}

function resultOf(answer: JsonRpcAnswer, what: string): unknown {
  if (answer.error) throw new JsonRpcError(`${what}: ${answer.error.message} (${answer.error.code})`);
  return answer.result;
}

async function post(url: string, body: unknown): Promise<unknown> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new JsonRpcError(`${url} answered HTTP ${response.status}: ${await response.text()}`);
  return response.json();
}

export async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  return resultOf((await post(url, { jsonrpc: '2.0', id: 1, method, params })) as JsonRpcAnswer, method) as T;
}

/** Calls sent as JSON-RPC batches of `size`; results in the order of `calls`. */
export async function rpcBatch<T>(url: string, calls: ReadonlyArray<{ method: string; params: unknown[] }>, size = 200): Promise<T[]> {
  const results: T[] = [];
  for (let offset = 0; offset < calls.length; offset += size) {
    const chunk = calls.slice(offset, offset + size);
    const answers = (await post(
      url,
      chunk.map((call, i) => ({ jsonrpc: '2.0', id: i, ...call })),
    )) as JsonRpcAnswer[];
    const byId = new Map(answers.map((answer) => [answer.id, answer]));
    for (const [i, call] of chunk.entries()) results.push(resultOf(byId.get(i) ?? { error: { code: 0, message: 'no answer' } }, call.method) as T);
  }
  return results;
}
