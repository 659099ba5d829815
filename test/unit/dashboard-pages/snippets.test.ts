import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlSnippet, KEY_PLACEHOLDER, keyedUrl, viemSnippet } from '../../../src/components/dashboard/snippets.ts';
import { projectRoot } from '../../support/build.ts';

// The app page's ready-to-paste examples, run as a person pastes them: the curl line in a POSIX
// shell, the viem module in node with the project's viem, each against a JSON-RPC endpoint on
// loopback that records what it got.

const run = promisify(execFile);
const key = 'Ab3_-xYz0123456789abcdefghijklmn';

let server: ReturnType<typeof createServer>;
let endpoint: string;
const received: Array<{ path: string; contentType: string | undefined; body: { method: string; jsonrpc: string } }> = [];

beforeAll(async () => {
  server = createServer(async (request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number; method: string; jsonrpc: string };
    received.push({ path: request.url ?? '', contentType: request.headers['content-type'], body });
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: '0x2a' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/node/ethereum-sepolia/v2/`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('keyedUrl', () => {
  it('appends the key to `{node_url}/v2/`, or a placeholder while the key is hidden', () => {
    expect(keyedUrl('https://n.example/node/base-sepolia/v2/', key)).toBe(`https://n.example/node/base-sepolia/v2/${key}`);
    expect(keyedUrl('https://base-sepolia.node.example/v2', key)).toBe(`https://base-sepolia.node.example/v2/${key}`);
    expect(keyedUrl('https://n.example/v2/', null)).toBe(`https://n.example/v2/${KEY_PLACEHOLDER}`);
  });
});

describe('the curl example', () => {
  it('posts eth_blockNumber as JSON to the keyed URL when run by a shell', async () => {
    received.length = 0;
    const { stdout } = await run('sh', ['-c', curlSnippet(keyedUrl(endpoint, key))]);
    expect(JSON.parse(stdout)).toEqual({ jsonrpc: '2.0', id: 1, result: '0x2a' });
    expect(received).toEqual([
      { path: `/node/ethereum-sepolia/v2/${key}`, contentType: 'application/json', body: { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] } },
    ]);
  });

  it('quotes a URL the shell would otherwise split or expand', () => {
    expect(curlSnippet("https://n.example/v2/a b'c")).toContain(`curl -s 'https://n.example/v2/a b'\\''c' -H`);
    expect(curlSnippet(`https://n.example/v2/${KEY_PLACEHOLDER}`)).toContain(`'https://n.example/v2/${KEY_PLACEHOLDER}'`);
  });
});

describe('the viem example', () => {
  it('prints the block number when run as a module with viem installed', async () => {
    received.length = 0;
    const dir = await mkdtemp(join(tmpdir(), 'crucible-snippet-'));
    try {
      await symlink(join(projectRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
      await writeFile(join(dir, 'example.mjs'), viemSnippet(keyedUrl(endpoint, key)));
      const { stdout } = await run(process.execPath, [join(dir, 'example.mjs')]);
      expect(stdout.trim()).toBe('42n');
      expect(received.map((entry) => [entry.path, entry.body.method])).toEqual([[`/node/ethereum-sepolia/v2/${key}`, 'eth_blockNumber']]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('writes the URL as a JavaScript string whatever it holds', () => {
    expect(viemSnippet("https://n.example/v2/it's\\")).toContain(String.raw`http('https://n.example/v2/it\'s\\')`);
  });
});
