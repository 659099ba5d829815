import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { numberToHex, type Address, type Hex } from 'viem';
import { loadAppKeySecret } from '../src/apps/key-secret.ts';
import { createAppStore } from '../src/apps/store.ts';
import { startAnvil } from '../src/chain/anvil.ts';
import { openDatabase } from '../src/db/open.ts';
import { EVENT_TOPICS } from '../src/indexer/events.ts';
import { writeFixtureDist } from '../test/support/fixture-dist.ts';
import { startBuiltSite, type BuiltSite } from '../test/support/site.ts';
import { cpuModel, writeBenchmarksSection } from './benchmarks-file.ts';
import { loadAverage, waitForQuietMachine } from './build/measure.ts';
import { fillChain, holderAddress, type FillShape } from './indexer/fill.ts';
import { rpc } from './indexer/json-rpc.ts';
import { quantile } from './quantile.ts';

// `npm run bench:transfers [-- --quick] [--transfers <n>] [--holders <n>] [--indexed <n>] [--rounds <n>] [--seconds <n>] [--no-wait] [--no-write]`:
// one address's newest 1,000 incoming ERC-20 transfers out of ≥ 1,000,000 indexed, through the
// production server, two ways, in rotating rounds one answer at a time:
//   crucible_getAssetTransfers { toAddress, category: ["erc20"], order: "desc", maxCount: "0x3e8" }
//   (one request), against the naive client approach: eth_getLogs with the Transfer topic over the
//   chain through the same gateway, newest blocks first in windows of 100 blocks, each answer
//   filtered on the client for transfers to the address, until 1,000 are found.
// Then crucible_getAssetTransfers alone at 32 connections (autocannon). The chain is an anvil
// filled by the indexer benchmark's fill (bench/indexer/fill.ts) and indexed by the server's own
// indexer; the rest of the million is written into the index's database directly (other holders'
// transfers over the same blocks and tokens), which the naive client never has to read: its
// figure is a floor. Both answers are checked to be the same 1,000 transfers before timing.

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean' },
    transfers: { type: 'string' },
    holders: { type: 'string' },
    indexed: { type: 'string' },
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    'no-wait': { type: 'boolean' },
    'no-write': { type: 'boolean' },
  },
});
const quick = args.quick ?? false;
const shape: FillShape = {
  transfers: Number(args.transfers ?? (quick ? 20_000 : 100_000)),
  holders: Number(args.holders ?? (quick ? 12 : 60)),
  tokens: 10,
  perBlock: 100,
  seed: 21,
};
const indexedTarget = Number(args.indexed ?? (quick ? 100_000 : 1_000_000));
const rounds = Number(args.rounds ?? (quick ? 2 : 5));
const seconds = Number(args.seconds ?? (quick ? 5 : 20));
const PAGE = 1000;
const WINDOW_BLOCKS = 100;
const CONNECTIONS = 32;
const NETWORK = 'base-sepolia';
const CHAIN_ID = 84532;
const TARGET = 20;
const QUIET_LOAD = 1.5;
/** Answers per round of each approach: the naive one takes seconds. */
const samples = { api: quick ? 20 : 100, naive: quick ? 3 : 10 };
/** The address whose transfers are listed: holder 1, which every other holder pays at random. */
const subject = holderAddress(1);

const log = (line: string) => console.log(line);
const scratch = await mkdtemp(join(tmpdir(), 'crucible-bench-transfers-'));
const fixture = await writeFixtureDist();
const anvil = await startAnvil({ chainId: CHAIN_ID, extraArgs: ['--no-mining'] });
let server: BuiltSite | undefined;
let head = 0;
let fillSeconds = 0;
let indexSeconds = 0;
let seeded = 0;
let seedSeconds = 0;
let indexedRows = 0;
let loadBefore = 0;
let loadAfter = 0;
const latencies = { api: [] as number[], naive: [] as number[] };
const scanned: number[] = [];
let concurrent: Awaited<ReturnType<typeof autocannon>> | undefined;
try {
  log(`filling anvil with ${shape.transfers.toLocaleString('en')} transfers across ${shape.holders} holders and ${shape.tokens} tokens`);
  const fill = await fillChain(anvil.rpcUrl, shape, log);
  ({ head, fillSeconds } = fill);
  log(`filled in ${fill.fillSeconds.toFixed(1)} s, head ${head}`);

  const databasePath = join(scratch, 'crucible.sqlite');
  const database = await openDatabase({ engine: 'sqlite', path: databasePath });
  const apps = createAppStore(database, {
    keySecret: await loadAppKeySecret({ engine: 'sqlite', path: databasePath, appKeySecret: null }),
    networks: [NETWORK],
  });
  const { key } = await apps.create({ name: 'asset transfers benchmark', computeUnitsPerSecond: 1_000_000, monthlyComputeUnitQuota: Number.MAX_SAFE_INTEGER });
  await database.close();
  const env = {
    DATABASE_PATH: databasePath,
    [`NODE_UPSTREAMS_${NETWORK.toUpperCase().replaceAll('-', '_')}`]: anvil.rpcUrl,
    INDEXER_IN_SERVER: 'on',
    INDEXER_NETWORKS: NETWORK,
    INDEXER_POLL_INTERVAL_MS: '200',
    REQUEST_LOG: 'off',
  };

  // The server's own indexer reads the chain (native transfers included), then stops with the server.
  const indexStarted = performance.now();
  server = await startBuiltSite({ distDir: fixture.distDir, env });
  await waitForIndexed(server.origin);
  indexSeconds = (performance.now() - indexStarted) / 1000;
  await server.stop();
  server = undefined;
  const seedStarted = performance.now();
  ({ seeded, indexedRows } = seedIndex(databasePath, fill.tokens));
  seedSeconds = (performance.now() - seedStarted) / 1000;
  log(
    `indexed the chain in ${indexSeconds.toFixed(1)} s; wrote ${seeded.toLocaleString('en')} more transfers in ${seedSeconds.toFixed(1)} s: ${indexedRows.toLocaleString('en')} indexed`,
  );

  server = await startBuiltSite({ distDir: fixture.distDir, env });
  const gatewayUrl = `${server.origin}/node/${NETWORK}/v2/${key}`;
  const request = { toAddress: subject, category: ['erc20'], order: 'desc', maxCount: numberToHex(PAGE), fromBlock: '0x0', toBlock: 'latest' };
  const api = async () => {
    const answer = await rpc<{ transfers: Array<{ uniqueId: string }> }>(gatewayUrl, 'crucible_getAssetTransfers', [request]);
    return answer.transfers.map((transfer) => transfer.uniqueId);
  };
  const naive = async () => {
    const found: string[] = [];
    let logs = 0;
    for (let to = head; to >= 0 && found.length < PAGE; to -= WINDOW_BLOCKS) {
      const from = Math.max(0, to - WINDOW_BLOCKS + 1);
      const window = await rpc<Array<{ topics: Hex[]; transactionHash: Hex; logIndex: Hex }>>(gatewayUrl, 'eth_getLogs', [
        { fromBlock: numberToHex(from), toBlock: numberToHex(to), topics: [EVENT_TOPICS.transfer] },
      ]);
      logs += window.length;
      // Newest first: the window's logs from its last.
      for (let i = window.length - 1; i >= 0 && found.length < PAGE; i--) {
        const entry = window[i]!;
        if (entry.topics.length === 3 && `0x${entry.topics[2]!.slice(-40)}` === subject.toLowerCase())
          found.push(`${entry.transactionHash}:log:${Number.parseInt(entry.logIndex, 16)}`);
      }
    }
    scanned.push(logs);
    return found;
  };
  // Both ways find the same transfers before anything is timed.
  const [byApi, byNaive] = [await api(), await naive()];
  if (byApi.length !== PAGE || JSON.stringify(byApi) !== JSON.stringify(byNaive))
    throw new Error(`the two ways disagree: ${byApi.length} and ${byNaive.length} transfers, first ${byApi[0]} and ${byNaive[0]}`);
  scanned.length = 0;

  loadBefore = args['no-wait'] ? await loadAverage() : await waitForQuietMachine(log, QUIET_LOAD, 60);
  log(`load ${loadBefore.toFixed(2)}: ${rounds} rounds of ${samples.api} crucible_getAssetTransfers and ${samples.naive} naive answers`);
  for (let i = 0; i < 5; i++) await api();
  for (let round = 0; round < rounds; round++) {
    for (const name of round % 2 === 0 ? (['api', 'naive'] as const) : (['naive', 'api'] as const)) {
      for (let i = 0; i < samples[name]; i++) {
        const started = performance.now();
        if ((await (name === 'api' ? api() : naive())).length !== PAGE) throw new Error(`${name} found fewer than ${PAGE} transfers`);
        latencies[name].push(performance.now() - started);
      }
    }
    const p50 = (name: 'api' | 'naive') => quantile(latencies[name], 0.5).toFixed(1);
    log(`round ${round + 1}: p50 crucible_getAssetTransfers ${p50('api')} ms, naive ${p50('naive')} ms`);
  }
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'crucible_getAssetTransfers', params: [request] });
  await autocannon({ url: gatewayUrl, method: 'POST', headers: { 'content-type': 'application/json' }, body, connections: CONNECTIONS, duration: 3 });
  concurrent = await autocannon({
    url: gatewayUrl,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections: CONNECTIONS,
    duration: seconds,
  });
  loadAfter = await loadAverage();
} finally {
  await server?.stop();
  await anvil.stop();
  await rm(fixture.root, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
}

/** Resolves once the server's index holds the chain's head. */
async function waitForIndexed(origin: string): Promise<void> {
  for (;;) {
    const status = (await (await fetch(`${origin}/api/indexer/status`)).json()) as { networks: Array<{ network: string; indexedBlock: number | null }> };
    if ((status.networks.find((entry) => entry.network === NETWORK)?.indexedBlock ?? -1) >= head) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Writes other holders' ERC-20 transfers into the index until it holds `indexedTarget`: spread over
 * the chain's blocks and tokens, from and to 10,000 addresses that are not the subject, at log
 * indexes past the chain's own.
 */
function seedIndex(path: string, tokens: readonly Address[]): { seeded: number; indexedRows: number } {
  const db = new DatabaseSync(path);
  const count = () => Number((db.prepare('select count(*) as count from indexer_transfers').get() as { count: number }).count);
  const missing = Math.max(0, indexedTarget - count());
  const others = Array.from({ length: 10_000 }, () => `0x${randomBytes(20).toString('hex')}`);
  const insert = db.prepare(
    `insert into indexer_transfers (network, block_number, log_index, batch_index, block_hash, block_timestamp, transaction_hash, transaction_index, contract, kind, from_address, to_address, token_id, amount)
     values (?, ?, ?, 0, ?, ?, ?, 0, ?, 'erc20', ?, ?, null, ?)`,
  );
  db.exec('begin');
  for (let i = 0; i < missing; i++) {
    const block = 1 + (i % head);
    insert.run(
      NETWORK,
      block,
      1_000_000 + Math.floor(i / head),
      `0x${'b'.repeat(64)}`,
      1_700_000_000 + block,
      `0x${randomBytes(32).toString('hex')}`,
      tokens[i % tokens.length]!.toLowerCase(),
      others[i % others.length]!,
      others[(i * 7 + 3) % others.length]!,
      String(1 + (i % 1000)),
    );
  }
  db.exec('commit');
  const indexedRows = count();
  db.close();
  return { seeded: missing, indexedRows };
}

const figure = (name: 'api' | 'naive') => ({ p50: quantile(latencies[name], 0.5), p99: quantile(latencies[name], 0.99), answers: latencies[name].length });
const apiFigures = figure('api');
const naiveFigures = figure('naive');
const ratio = naiveFigures.p50 / apiFigures.p50;
const meanScanned = Math.round(scanned.reduce((sum, n) => sum + n, 0) / Math.max(1, scanned.length));
const table = [
  '| one answer at a time, through the gateway | p50 (ms) | p99 (ms) | answers |',
  '|---|---:|---:|---:|',
  `| \`crucible_getAssetTransfers\`, newest ${PAGE.toLocaleString('en')} to the address (one request) | ${apiFigures.p50.toFixed(1)} | ${apiFigures.p99.toFixed(1)} | ${apiFigures.answers} |`,
  `| naive: \`eth_getLogs\` (Transfer topic) in windows of ${WINDOW_BLOCKS} blocks, newest first, filtered on the client (${meanScanned.toLocaleString('en')} logs read per answer) | ${naiveFigures.p50.toFixed(1)} | ${naiveFigures.p99.toFixed(1)} | ${naiveFigures.answers} |`,
  `| naive / crucible_getAssetTransfers | ${ratio.toFixed(1)}× | ${(naiveFigures.p99 / apiFigures.p99).toFixed(1)}× | |`,
].join('\n');
const concurrentTable = [
  `| \`crucible_getAssetTransfers\` at ${CONNECTIONS} connections | req/s | p50 (ms) | p99 (ms) | non-2xx | errors |`,
  '|---|---:|---:|---:|---:|---:|',
  `| ${seconds} s, one request in flight per connection | ${concurrent!.requests.average.toFixed(1)} | ${concurrent!.latency.p50} | ${concurrent!.latency.p99} | ${concurrent!.non2xx} | ${concurrent!.errors + concurrent!.timeouts} |`,
].join('\n');
log(`\n${table}\n\n${concurrentTable}\n`);

const cpu = await cpuModel();
const out = join(import.meta.dirname, 'out');
await mkdir(out, { recursive: true });
await writeFile(
  join(out, 'asset-transfers.json'),
  `${JSON.stringify({ shape, head, indexedRows, seeded, rounds, samples, cpu, loadBefore, loadAfter, api: apiFigures, naive: naiveFigures, ratio, concurrent: concurrent!.latency }, null, 2)}\n`,
);
if (!quick && !args['no-write']) {
  await writeBenchmarksSection(
    'Asset transfers',
    [
      '## Asset transfers',
      '',
      `One address's newest ${PAGE.toLocaleString('en')} incoming ERC-20 transfers out of ${indexedRows.toLocaleString('en')} indexed, through the node gateway: \`crucible_getAssetTransfers\` (\`toAddress\`, \`category: ["erc20"]\`, \`order: "desc"\`, \`maxCount: "0x3e8"\`) against the naive client approach, \`eth_getLogs\` over the chain through the same gateway, filtered on the client.`,
      '',
      `- Command: \`npm run bench:transfers\` (${rounds} rounds alternating which approach goes first, ${samples.api} \`crucible_getAssetTransfers\` and ${samples.naive} naive answers per round after 5 of the first, one answer at a time over keep-alive fetch; then ${seconds} s of autocannon at ${CONNECTIONS} connections after 3 s of warm-up).`,
      `- Chain: a fresh anvil (chain ${CHAIN_ID}, \`--no-mining\`) filled by the indexer benchmark's fill (bench/indexer/fill.ts) with ${shape.transfers.toLocaleString('en')} ERC-20 transfers across ${shape.holders} holders and ${shape.tokens} tokens, ${shape.perBlock} a block, head at block ${head} (${fillSeconds.toFixed(0)} s). The address is holder 1, which the others pay at random.`,
      `- Index: the production server (\`node src/server/main.ts\` over a fixture build, SQLite, \`NODE_UPSTREAMS_BASE_SEPOLIA\` at the anvil, its indexer on) indexed the chain, native transfers included, in ${indexSeconds.toFixed(1)} s; then, the server stopped, ${seeded.toLocaleString('en')} more ERC-20 transfers were written straight into its database (${seedSeconds.toFixed(0)} s): other addresses' (10,000 random ones), over the same blocks and tokens. The server was started again on that database for the measurements; one app key with 1,000,000 CU/s, request logging off.`,
      `- Naive: \`eth_getLogs\` with the Transfer topic and no address, ${WINDOW_BLOCKS}-block windows from the head down (about 10,000 logs a window), each answer filtered on the client for \`to\` = the address, until ${PAGE.toLocaleString('en')} are found (${meanScanned.toLocaleString('en')} logs read per answer). It reads only the chain, not the ${seeded.toLocaleString('en')} transfers written into the index alone, so its figure is a floor for an index of that size; a client that filtered on the \`to\` topic itself would read fewer logs, which is not what is compared. Both approaches were checked to give the same ${PAGE.toLocaleString('en')} transfers in the same order before timing.`,
      `- Machine: ${cpus().length} CPUs (\`nproc\`), ${cpu}, Node ${process.version}; the client, the server and anvil share the machine`,
      `- 1-minute load average: ${loadBefore.toFixed(2)} when measuring started${args['no-wait'] ? ' (not waited for: --no-wait)' : ''}, ${loadAfter.toFixed(2)} at the end`,
      `- Date: ${new Date().toISOString().slice(0, 10)}`,
      '',
      table,
      '',
      concurrentTable,
      '',
      `Target: ≥ ${TARGET}× faster than the naive approach at p50. ${ratio >= TARGET ? `Met in this run (${ratio.toFixed(1)}×).` : `**Missed** in this run: ${ratio.toFixed(1)}×.`}`,
      '',
    ].join('\n'),
  );
}
