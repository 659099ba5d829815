import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { loadAppKeySecret } from '../src/apps/key-secret.ts';
import { createAppStore } from '../src/apps/store.ts';
import { openDatabase } from '../src/db/open.ts';
import { startTestAnvil, THIRD_PARTY_KEY } from '../test/support/anvil.ts';
import { writeFixtureDist } from '../test/support/fixture-dist.ts';
import { startBuiltSite } from '../test/support/site.ts';
import { cpuModel, writeBenchmarksSection } from './benchmarks-file.ts';
import { loadAverage, waitForQuietMachine } from './build/measure.ts';
import { type LoadJob, type LoadResult, startLoadGenerator } from './gateway/load-generator.ts';
import { childPid, cpuMsOf } from './gateway/processes.ts';

// `npm run bench:mcp [-- --duration <s>] [--rounds <n>] [--no-wait] [--cpu-prof <dir>]`: what a tool call of the MCP
// server costs beside the same call through the JSON-RPC gateway, side by side in one run, on the
// production server with the same app and key: `tools/call` POSTed to `<site origin>/mcp`
// (Streamable HTTP, stateless: each message admitted, charged its least charge, parsed by the
// SDK's transport and server, the call made through the gateway, the answer shaped and sized) and
// the JSON-RPC request POSTed to `{node_url}/v2/<key>`. Each workload runs in alternating rounds at
// 1 client and at 16 (keep-alive connections, one request in flight on each). A full run writes the
// `## MCP server` section of BENCHMARKS.md.

const option = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1]!;
};
const seconds = Number(option('duration', '5'));
const rounds = Number(option('rounds', '3'));
const waitForQuiet = !process.argv.includes('--no-wait');
/** A directory for the server's CPU profile (`node --cpu-prof`), written when it stops; BENCHMARKS.md is left alone. */
const cpuProfileDir = option('cpu-prof', '');
const CLIENTS = [1, 16] as const;
const WARM_UP_SECONDS = 2;
const NETWORK = 'base-sepolia';
const CHAIN_ID = 84532;
/** The protocol version the benchmark's messages name, as the SDK's client sends it after initialize. */
const PROTOCOL_VERSION = '2025-11-25';

interface Workload {
  name: string;
  description: string;
  method: string;
  params: unknown[];
  /** The tool's inputs for the same call. */
  args: Record<string, unknown>;
}

interface Round extends LoadResult {
  serverCpuMs: number;
}

const scratch = await mkdtemp(join(tmpdir(), 'crucible-bench-mcp-'));
const fixture = await writeFixtureDist();
// Automine: the chain holds still while it is measured, so both sides read the same state.
const chain = await startTestAnvil({ chainId: CHAIN_ID });
const sender = privateKeyToAccount(THIRD_PARTY_KEY);
const hash = await chain.client.sendTransaction({ account: sender, chain: null, to: '0x000000000000000000000000000000000000dEaD', value: parseEther('1') });
await chain.client.waitForTransactionReceipt({ hash });

const databasePath = join(scratch, 'crucible.sqlite');
const database = await openDatabase({ engine: 'sqlite', path: databasePath });
const apps = createAppStore(database, { keySecret: await loadAppKeySecret({ engine: 'sqlite', path: databasePath, appKeySecret: null }), networks: [NETWORK] });
// The highest rate an app may have, and a monthly quota that is counted but never reached.
const { key } = await apps.create({ name: 'mcp benchmark', computeUnitsPerSecond: 1_000_000, monthlyComputeUnitQuota: Number.MAX_SAFE_INTEGER });
await database.close();

const server = await startBuiltSite({
  distDir: fixture.distDir,
  env: {
    DATABASE_PATH: databasePath,
    [`NODE_UPSTREAMS_${NETWORK.toUpperCase().replaceAll('-', '_')}`]: chain.rpcUrl,
    REQUEST_LOG: 'off',
    ...(cpuProfileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${cpuProfileDir}` } : {}),
  },
});
const gatewayUrl = `${server.origin}/node/${NETWORK}/v2/${key}`;
const mcpUrl = `${server.origin}/mcp`;
const mcpHeaders = { authorization: `Bearer ${key}`, accept: 'application/json, text/event-stream', 'mcp-protocol-version': PROTOCOL_VERSION };

const workloads: Workload[] = [
  { name: 'eth_blockNumber', description: 'the head, from the upstream each time', method: 'eth_blockNumber', params: [], args: {} },
  {
    name: 'eth_getBalance',
    description: 'an account’s balance at latest, its wei formatted beside it by the tool',
    method: 'eth_getBalance',
    params: [sender.address, 'latest'],
    args: { address: sender.address, blockTag: 'latest' },
  },
  {
    name: 'eth_getTransactionReceipt (cached)',
    description: 'a mined receipt, from the gateway’s answer cache after the first call; the tool checksums its addresses',
    method: 'eth_getTransactionReceipt',
    params: [hash],
    args: { transactionHash: hash },
  },
];
const jobs = (workload: Workload): { gateway: Omit<LoadJob, 'connections' | 'seconds'>; mcp: Omit<LoadJob, 'connections' | 'seconds'> } => ({
  gateway: { url: gatewayUrl, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: workload.method, params: workload.params }) },
  mcp: {
    url: mcpUrl,
    headers: mcpHeaders,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: workload.method, arguments: { network: NETWORK, ...workload.args } } }),
  },
});

/** The same answer through both doors before anything is timed: the tool's `result` is the gateway's, addresses checksummed. */
async function check(workload: Workload): Promise<void> {
  const { gateway, mcp } = jobs(workload);
  const viaGateway = (await (await fetch(gateway.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: gateway.body })).json()) as {
    result?: unknown;
  };
  const response = await fetch(mcp.url, { method: 'POST', headers: { 'content-type': 'application/json', ...mcp.headers }, body: mcp.body });
  const message = (await response.json()) as { result?: { content: Array<{ text: string }>; isError?: boolean } };
  const tool = message.result;
  if (response.status !== 200 || !tool || tool.isError)
    throw new Error(`${workload.name}: the MCP server answered ${response.status} ${JSON.stringify(message)}`);
  const answer = JSON.parse(tool.content[0]!.text) as { result: unknown };
  if (JSON.stringify(answer.result).toLowerCase() !== JSON.stringify(viaGateway.result).toLowerCase())
    throw new Error(`${workload.name}: the tool and the gateway answered differently`);
}

/** Mean req/s over the rounds, the median round's p50 and p99, failures summed, server CPU per request. */
function combine(side: Round[]): LoadResult & { cpuUs: number } {
  const median = [...side].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(side.length / 2)]!;
  const sum = (pick: (r: Round) => number) => side.reduce((total, r) => total + pick(r), 0);
  const requests = sum((r) => r.requests);
  return {
    requestsPerSecond: sum((r) => r.requestsPerSecond) / side.length,
    p50: median.p50,
    p99: median.p99,
    requests,
    failures: sum((r) => r.failures),
    cpuUs: (1000 * sum((r) => r.serverCpuMs)) / requests,
  };
}

const load = startLoadGenerator();
const serverPid = await childPid('src/server/main.ts');
const rows: Array<{ workload: Workload; clients: number; gateway: Round[]; mcp: Round[] }> = [];
let loadBefore: number;
let loadAfter: number;
try {
  for (const workload of workloads) await check(workload);
  loadBefore = waitForQuiet ? await waitForQuietMachine(console.log) : await loadAverage();
  console.log(`1-minute load ${loadBefore.toFixed(2)}: ${rounds} rounds of ${seconds} s per side at ${CLIENTS.join(' and ')} clients`);
  const run = async (job: Omit<LoadJob, 'connections' | 'seconds'>, connections: number, s: number): Promise<Round> => {
    const before = await cpuMsOf(serverPid);
    const result = await load.run({ ...job, connections, seconds: s });
    return { ...result, serverCpuMs: (await cpuMsOf(serverPid)).total - before.total };
  };
  // The server's JIT warms on every workload through both doors first.
  for (const workload of workloads) for (const job of Object.values(jobs(workload))) await run(job, 16, WARM_UP_SECONDS);
  for (const workload of workloads) {
    const { gateway, mcp } = jobs(workload);
    for (const clients of CLIENTS) {
      const row = { workload, clients, gateway: [] as Round[], mcp: [] as Round[] };
      // Rounds alternate which side goes first: the machine is shared, and load from elsewhere comes and goes.
      for (let round = 0; round < rounds; round++) {
        const sides: Array<[Omit<LoadJob, 'connections' | 'seconds'>, Round[]]> = [
          [gateway, row.gateway],
          [mcp, row.mcp],
        ];
        if (round % 2) sides.reverse();
        for (const [job, side] of sides) side.push(await run(job, clients, seconds));
      }
      rows.push(row);
      const [g, m] = [combine(row.gateway), combine(row.mcp)];
      console.log(
        `${workload.name.padEnd(36)} ${String(clients).padStart(2)} clients | gateway ${g.requestsPerSecond.toFixed(0).padStart(6)} req/s p50 ${g.p50.toFixed(2)} p99 ${g.p99.toFixed(2)} ms | ` +
          `MCP ${m.requestsPerSecond.toFixed(0).padStart(6)} req/s p50 ${m.p50.toFixed(2)} p99 ${m.p99.toFixed(2)} ms | added p50 ${(m.p50 - g.p50).toFixed(3)} ms | ` +
          `server CPU µs/call ${g.cpuUs.toFixed(0)} / ${m.cpuUs.toFixed(0)}${g.failures + m.failures ? ` | failures ${g.failures} / ${m.failures}` : ''}`,
      );
    }
  }
  loadAfter = await loadAverage();
} finally {
  load.stop();
  await server.stop();
  await chain.stop();
  await rm(fixture.root, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
}

if (cpuProfileDir) process.exit(0);

const fmt = (value: number, digits = 2) => value.toFixed(digits);
const table = [
  '| workload | clients | gateway req/s | MCP req/s | MCP / gateway | gateway p50 / p99 (ms) | MCP p50 / p99 (ms) | added p50 (ms) | server CPU per call (µs): gateway / MCP |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map((row) => {
    const [g, m] = [combine(row.gateway), combine(row.mcp)];
    return `| ${row.workload.name} | ${row.clients} | ${g.requestsPerSecond.toFixed(0)} | ${m.requestsPerSecond.toFixed(0)} | ${fmt(m.requestsPerSecond / g.requestsPerSecond)} | ${fmt(g.p50)} / ${fmt(g.p99)} | ${fmt(m.p50)} / ${fmt(m.p99)} | ${fmt(m.p50 - g.p50, 3)} | ${g.cpuUs.toFixed(0)} / ${m.cpuUs.toFixed(0)} |`;
  }),
].join('\n');
const failures = rows
  .map((row) => ({ name: `${row.workload.name} at ${row.clients}`, counts: [combine(row.gateway).failures, combine(row.mcp).failures] }))
  .filter((row) => row.counts.some(Boolean))
  .map((row) => `${row.name}: ${row.counts.join(' / ')} (gateway / MCP)`);
// Hand-written subsections (where the time goes, what changed) are kept across runs.
const kept = await readFile(join(import.meta.dirname, '../BENCHMARKS.md'), 'utf8').then(
  (text) => {
    const start = text.indexOf('## MCP server\n');
    const end = start === -1 ? -1 : text.indexOf('\n## ', start + 1);
    const sub = start === -1 ? -1 : text.indexOf('\n### ', start);
    return sub === -1 || (end !== -1 && sub > end) ? '' : text.slice(sub + 1, end === -1 ? undefined : end).trimEnd();
  },
  () => '',
);
const given = process.argv.slice(2);
const section = [
  '## MCP server',
  '',
  "A tool call of the MCP server (`tools/call` POSTed to `<site origin>/mcp`, Streamable HTTP, stateless: the key admitted and the message's least charge taken before it is read, the body parsed, the SDK's transport and server made for the message, the call made through the gateway with the key's admission, charge and metering, the answer shaped and sized) against the same call through the JSON-RPC gateway (`POST {node_url}/v2/<key>`), side by side in one run on the production server, with the same app and key.",
  '',
  `- Command: \`npm run bench:mcp${given.length ? ` -- ${given.join(' ')}` : ''}\` (autocannon in its own process; each client a keep-alive connection with one request in flight; ${WARM_UP_SECONDS} s of every workload through both doors first, then per workload and client count ${rounds} rounds of ${seconds} s per side, alternating which side goes first; anvil (chain ${CHAIN_ID}) with automine; one app with 1,000,000 CU/s and a quota it never reaches; request logging off). Figures are the mean req/s over the rounds and the median round's p50/p99 from each 2xx response's own time; server CPU per call is read from /proc over the rounds.`,
  `- Workloads: ${workloads.map((w) => `${w.name} (${w.description})`).join('; ')}. The MCP message is \`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"<method>","arguments":{"network":"${NETWORK}",…}}}\` with \`Authorization: Bearer <key>\`, \`Accept: application/json, text/event-stream\` and \`Mcp-Protocol-Version: ${PROTOCOL_VERSION}\`; its answer was checked against the gateway's before timing.`,
  `- Machine: ${cpus().length} CPUs (\`nproc\`), ${await cpuModel()}, Node ${process.version}; the load generator, the server and anvil share the machine`,
  `- 1-minute load average: ${loadBefore.toFixed(2)} when measuring started${waitForQuiet ? '' : ' (not waited for: --no-wait)'}, ${loadAfter.toFixed(2)} at the end`,
  `- Date: ${new Date().toISOString().slice(0, 10)}`,
  '',
  table,
  '',
  ...(failures.length ? [`Failed requests: ${failures.join('; ')}.`, ''] : []),
  ...(kept ? [kept, ''] : []),
].join('\n');
await writeBenchmarksSection('MCP server', section);
