import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { startTestAnvil } from '../test/support/anvil.ts';
import { cpuModel, writeBenchmarksSection } from './benchmarks-file.ts';
import { loadAverage, waitForQuietMachine } from './build/measure.ts';

// `npm run bench:outbound -- --baseline <checkout> [--baseline-label <text>] [--seconds <s>] [--rounds <n>] [--no-wait]`:
// the CPU each outbound HTTP client of this checkout spends per request, against the same client of
// another checkout (an earlier commit with its node_modules, its modules imported from there), in
// alternating rounds in this one process: an upstream node's client (createUpstream) against anvil
// with 32 calls in flight, and the NFT fetcher, the webhook poster and the exchange client against a
// node:http server in a child process with 8 in flight. CPU is this process's own
// (process.cpuUsage): the servers' work is not in it. The Turnstile siteverify call takes the
// exchange client's path (one request through the same function) and is not measured apart.
// A full run writes the `## Outbound HTTP clients` section of BENCHMARKS.md.

const option = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1]!;
};
const baselineCheckout = option('baseline', '');
if (!baselineCheckout || !existsSync(join(baselineCheckout, 'src/nfts/safe-fetch.ts')))
  throw new Error('--baseline <checkout> names a checkout with its node_modules');
const baselineLabel = option('baseline-label', baselineCheckout);
const seconds = Number(option('seconds', '3'));
const rounds = Number(option('rounds', '4'));
const waitForQuiet = !process.argv.includes('--no-wait');
const DOCUMENT = JSON.stringify({ name: 'Relic #1', description: 'x'.repeat(2000), image: 'ipfs://Qm/1.png' });
const BLOCK_NUMBER = '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}';

type Call = () => Promise<unknown>;
interface Client {
  name: string;
  inFlight: number;
  call: Record<'before' | 'after', Call>;
}

/** A node:http server in its own process answering every request, its body read, with DOCUMENT. */
async function startDocumentServer(): Promise<{ origin: string; stop(): void }> {
  const code = `const s = require('node:http').createServer((q, r) => { q.resume(); q.on('end', () => r.writeHead(200, { 'content-type': 'application/json' }).end(${JSON.stringify(DOCUMENT)})); });
s.listen(0, '127.0.0.1', () => console.log(s.address().port));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolvePort) => child.stdout.once('data', (chunk: Buffer) => resolvePort(chunk.toString().trim())));
  return { origin: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

/** The clients of the checkout at `root`, by the functions every version of it exports. */
async function clientsOf(root: string, urls: { rpc: string; documents: string }) {
  const from = (path: string) => import(join(resolve(root), path));
  const { createUpstream } = await from('src/node/upstreams/upstream.ts');
  const { safeFetch } = await from('src/nfts/safe-fetch.ts');
  const { postDelivery } = await from('src/webhooks/post.ts');
  const { createExchangeHttp } = await from('src/prices/exchanges/http.ts');
  const upstream = createUpstream(urls.rpc, { timeoutMs: 10_000 });
  const exchange = createExchangeHttp({ retryDelayMs: () => 1 });
  const fetchOptions = { timeoutMs: 10_000, maxBytes: 1024 * 1024, blockedAddresses: null, siteOrigin: null };
  return {
    upstream: () => upstream.post(BLOCK_NUMBER),
    nft: () => safeFetch(new URL(`${urls.documents}/1.json`), fetchOptions),
    webhook: () => postDelivery(`${urls.documents}/hook`, DOCUMENT, { 'x-crucible-signature': 'x' }, { timeoutMs: 10_000, blockedAddresses: null }),
    exchange: () => exchange.get(new URL(`${urls.documents}/ticker`), (body: string) => ({ ok: true, value: body.length })),
    close: () => upstream.close(),
  };
}

/** Calls `call` with `inFlight` at once for `ms`; the calls made and this process's CPU (µs). */
async function run(call: Call, inFlight: number, ms: number): Promise<{ calls: number; cpuMicros: number }> {
  let calls = 0;
  const end = performance.now() + ms;
  const before = process.cpuUsage();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < end) {
        await call();
        calls++;
      }
    }),
  );
  const used = process.cpuUsage(before);
  return { calls, cpuMicros: used.user + used.system };
}

const chain = await startTestAnvil({ chainId: 31337 });
const documents = await startDocumentServer();
const urls = { rpc: chain.rpcUrl, documents: documents.origin };
const [before, after] = [await clientsOf(baselineCheckout, urls), await clientsOf(join(import.meta.dirname, '..'), urls)];
const clients: Client[] = [
  { name: "an upstream node's client (eth_blockNumber to anvil)", inFlight: 32, call: { before: before.upstream, after: after.upstream } },
  { name: 'the NFT fetcher (a 2 KB document)', inFlight: 8, call: { before: before.nft, after: after.nft } },
  { name: 'the webhook poster (a 2 KB delivery)', inFlight: 8, call: { before: before.webhook, after: after.webhook } },
  { name: 'the exchange client (a 2 KB answer)', inFlight: 8, call: { before: before.exchange, after: after.exchange } },
];
const rows: string[] = [];
let loadBefore = 0;
try {
  loadBefore = waitForQuiet ? await waitForQuietMachine(console.log) : await loadAverage();
  for (const client of clients) {
    const totals = { before: { calls: 0, cpuMicros: 0 }, after: { calls: 0, cpuMicros: 0 } };
    for (const side of ['before', 'after'] as const) await run(client.call[side], client.inFlight, 1000);
    for (let round = 0; round < rounds; round++) {
      for (const side of round % 2 ? (['after', 'before'] as const) : (['before', 'after'] as const)) {
        const result = await run(client.call[side], client.inFlight, seconds * 1000);
        totals[side].calls += result.calls;
        totals[side].cpuMicros += result.cpuMicros;
      }
    }
    const cpu = (side: 'before' | 'after') => totals[side].cpuMicros / totals[side].calls;
    const rate = (side: 'before' | 'after') => totals[side].calls / (rounds * seconds);
    const change = (cpu('after') / cpu('before') - 1) * 100;
    const line = `| ${client.name} | ${client.inFlight} | ${cpu('before').toFixed(1)} | ${cpu('after').toFixed(1)} | ${change >= 0 ? '+' : ''}${change.toFixed(0)}% | ${rate('before').toFixed(0)} | ${rate('after').toFixed(0)} |`;
    console.log(line);
    rows.push(line);
  }
} finally {
  before.close();
  after.close();
  documents.stop();
  await chain.stop();
}
const loadAfter = await loadAverage();
const given = process.argv.slice(2).map((arg) => (arg === baselineCheckout ? `<checkout of ${baselineLabel}>` : arg));
await writeBenchmarksSection(
  'Outbound HTTP clients',
  [
    '## Outbound HTTP clients',
    '',
    `Each outbound HTTP client of this code against the same client of ${baselineLabel}, in one process, in alternating rounds: the CPU the client's process spends per request (the servers it calls run in processes of their own), and the requests it completes per second. The NFT fetcher, the webhook poster and the exchange client call a node:http server on loopback answering a 2 KB JSON document (at an IP literal, so no DNS lookup, and with no address guard); an upstream node's client calls anvil. The Turnstile siteverify call goes through the same function as the exchange client. A client moves to undici where it costs under 10% more CPU per request, counted on what the request costs the process: for an upstream node's client that is the gateway's CPU per request (section Node gateway), of which the client is a small part; the other three were node:http with a connection per request, or fetch, and cost less through undici.`,
    '',
    `- Command: \`npm run bench:outbound -- ${given.join(' ')}\` (${rounds} rotating rounds of ${seconds} s per side after a 1 s warm-up each)`,
    `- Machine: ${cpus().length} CPUs (\`nproc\`), ${await cpuModel()}, Node ${process.version}; the clients, the server and anvil share the machine`,
    `- 1-minute load average: ${loadBefore.toFixed(2)} when measuring started${waitForQuiet ? '' : ' (not waited for: --no-wait)'}, ${loadAfter.toFixed(2)} at the end`,
    `- Date: ${new Date().toISOString().slice(0, 10)}`,
    '',
    `| client | in flight | CPU per request (µs): ${baselineLabel} | this code | change | requests/s: ${baselineLabel} | this code |`,
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
  ].join('\n'),
);
