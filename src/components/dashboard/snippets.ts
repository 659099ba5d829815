// Ready-to-paste examples of an app's endpoint (pure: unit-tested): a JSON-RPC call with curl,
// and a viem client, each holding the URL with the key (docs/hosts-and-paths.md#node-url, docs/json-rpc.md#upstreams).

/** What stands in the examples for a key not shown yet. */
export const KEY_PLACEHOLDER = '<API_KEY>';

const FIRST_CALL = '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}';

/** `{node_url}/v2/<key>` from an endpoint as the API lists it (`{node_url}/v2/`). */
export function keyedUrl(endpoint: string, key: string | null): string {
  return `${endpoint.endsWith('/') ? endpoint : `${endpoint}/`}${key ?? KEY_PLACEHOLDER}`;
}

/** A value as one POSIX shell word. */
function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/** A value as a single-quoted JavaScript string. */
function jsString(value: string): string {
  return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** eth_blockNumber with curl. */
export function curlSnippet(url: string): string {
  return `curl -s ${shellQuote(url)} -H 'content-type: application/json' -d '${FIRST_CALL}'`;
}

/** The latest block number with viem, whose http transport takes the URL as is. */
export function viemSnippet(url: string): string {
  return [
    "import { createPublicClient, http } from 'viem';",
    '',
    `const client = createPublicClient({ transport: http(${jsString(url)}) });`,
    'console.log(await client.getBlockNumber());',
  ].join('\n');
}
