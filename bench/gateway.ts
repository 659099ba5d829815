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
import { coresSection } from './gateway/cores-section.ts';
import { startLoadGenerator } from './gateway/load-generator.ts';
import {
  childPid,
  cpuMsOf,
  cpuMsOfAll,
  processTree,
  type RecordedAnswer,
  startBareServer,
  startBaselineServer,
  startSupervisedServer,
} from './gateway/processes.ts';
import { combine, coresBusy, cpuPerRequest, type Round, type Side } from './gateway/rounds.ts';
import { type Workload, workloadsFor } from './gateway/workloads.ts';

// `npm run bench:gateway [-- --duration <s>] [--rounds <n>] [--connections <n>] [--only <text>] [--no-wait] [--cpu-prof <dir>]
//   [--baseline <checkout> --baseline-label <text>] [--processes <n>]`:
// the node gateway (`{node_url}/v2/<key>` through the production server: key check, rate limit,
// monthly quota and usage metering on) against the same anvil called directly, side by side in
// one run, for eth_blockNumber, eth_getBalance, a 10-call batch and a cached
// eth_getTransactionReceipt; beside them bare node:http answering the gateway's bytes, the
// ceiling of a node:http server here. Each workload runs in alternating rounds at 32 keep-alive
// connections, then at 1 (the latency the gateway adds to a request that does not queue).
// With --baseline, the production server of another checkout (an earlier commit, with its
// node_modules) serves the same network and app beside this one, in the same rounds: before and after.
// A full run writes the `## Node gateway` section of BENCHMARKS.md.
// With --processes <n>, the gateway is this checkout's server as `npm start` runs it with
// SERVER_PROCESSES=n (a supervisor, n server processes, the workers' process) over the same site,
// database and anvil, against anvil direct, with the CPU of the load generator, of every process of
// the supervisor's tree and of anvil over each round (no bare server, no baseline); a full run
// writes the `## Node gateway: <n> server processes` section.

const option = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1]!;
};
const seconds = Number(option('duration', '5'));
const rounds = Number(option('rounds', '3'));
const connections = Number(option('connections', '32'));
/** Only the workloads whose name contains this (profiling, quick runs); BENCHMARKS.md is left alone. */
const only = option('only', '');
/** A directory for the server's CPU profile (`node --cpu-prof`), written when it stops. */
const cpuProfileDir = option('cpu-prof', '');
const waitForQuiet = !process.argv.includes('--no-wait');
const baselineCheckout = option('baseline', '');
const baselineLabel = option('baseline-label', baselineCheckout);
/** Server processes under the supervisor (--processes); 0: one process, `node src/server/main.ts`. */
const processCount = Number(option('processes', '0'));
if (!Number.isInteger(processCount) || processCount < 0)
  throw new Error(`--processes takes a whole number of server processes, not ${option('processes', '')}`);
if (processCount && baselineCheckout) throw new Error('--processes runs this checkout only: leave out --baseline');
/** Seconds of each side's warm-up, and of each round at one connection. */
const WARM_UP_SECONDS = 2;
const SERIAL_SECONDS = 2;
const NETWORK = 'base-sepolia';
const CHAIN_ID = 84532;
/** Targets of the gateway against direct calls: req/s ratios, and the p50 it may add (ms). */
const TARGET = { uncached: 0.7, cached: 3, addedP50Ms: 1 };

interface Row {
  workload: Workload;
  gateway: Side;
  direct: Side;
  bare: Side;
  /** The other checkout's server (--baseline); empty without one. */
  baseline: Side;
  serialGateway: Side;
  serialDirect: Side;
  serialBaseline: Side;
}

async function post(url: string, body: string): Promise<RecordedAnswer> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${url} answered HTTP ${response.status}: ${text}`);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(name)) headers[name] = value;
  });
  return { status: response.status, headers, body: text };
}

/** The results of a JSON-RPC answer (one or a batch), ids dropped; throws on any error member. */
function resultsOf(answer: RecordedAnswer, side: string): string {
  const parsed = JSON.parse(answer.body) as unknown;
  const items = (Array.isArray(parsed) ? parsed : [parsed]) as Array<{ result?: unknown; error?: unknown }>;
  for (const item of items) if (item.error !== undefined || item.result === undefined) throw new Error(`${side} answered an error: ${JSON.stringify(item)}`);
  return JSON.stringify(items.map((item) => item.result));
}

const scratch = await mkdtemp(join(tmpdir(), 'crucible-bench-gateway-'));
const fixture = await writeFixtureDist();
// Automine (no block time): the chain holds still while it is measured, so every side reads the
// same state and anvil spends nothing on empty blocks.
const chain = await startTestAnvil({ chainId: CHAIN_ID });
const sender = privateKeyToAccount(THIRD_PARTY_KEY);
const hash = await chain.client.sendTransaction({ account: sender, chain: null, to: '0x000000000000000000000000000000000000dEaD', value: parseEther('1') });
await chain.client.waitForTransactionReceipt({ hash });

const databasePath = join(scratch, 'crucible.sqlite');
const database = await openDatabase({ engine: 'sqlite', path: databasePath });
const apps = createAppStore(database, { keySecret: await loadAppKeySecret({ engine: 'sqlite', path: databasePath, appKeySecret: null }), networks: [NETWORK] });
// The highest rate an app may have, and a monthly quota that is counted but never reached.
const { key } = await apps.create({ name: 'gateway benchmark', computeUnitsPerSecond: 1_000_000, monthlyComputeUnitQuota: Number.MAX_SAFE_INTEGER });
await database.close();

const serverEnv = {
  DATABASE_PATH: databasePath,
  [`NODE_UPSTREAMS_${NETWORK.toUpperCase().replaceAll('-', '_')}`]: chain.rpcUrl,
  REQUEST_LOG: 'off',
  ...(cpuProfileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${cpuProfileDir}` } : {}),
};
const supervised = processCount ? await startSupervisedServer(processCount, { ...serverEnv, SITE_DIR: fixture.distDir }) : null;
const server = supervised ?? (await startBuiltSite({ distDir: fixture.distDir, env: serverEnv }));
const gatewayUrl = `${server.origin}/node/${NETWORK}/v2/${key}`;
// The baseline's server shares the anvil and the app and key (in a copy of the database its migrations accept).
const baseline = baselineCheckout ? await startBaselineServer(baselineCheckout, { ...serverEnv, SITE_DIR: fixture.distDir }) : null;
const baselineUrl = baseline && `${baseline.origin}/node/${NETWORK}/v2/${key}`;
const workloads = workloadsFor({ receiptHash: hash, account: sender.address }).filter((w) => w.name.includes(only));
/** The processes whose CPU counts as the gateway's, and of those the server processes. */
interface Front {
  pids: number[];
  servers: number[];
}
const gatewayFront: Front = supervised
  ? { pids: await processTree(supervised.pid), servers: supervised.serverPids }
  : await childPid('src/server/main.ts').then((pid) => ({ pids: [pid], servers: [pid] }));
if (supervised)
  console.log(
    `npm start with SERVER_PROCESSES=${processCount}: server processes ${supervised.serverPids.join(', ')}, supervisor ${supervised.pid}, ${gatewayFront.pids.length} processes in all`,
  );
const load = startLoadGenerator();
let bare: Awaited<ReturnType<typeof startBareServer>> | undefined;

const rows: Row[] = [];
let loadBefore: number;
let loadAfter: number;
try {
  // The same results from anvil and the gateway before anything is timed (the receipt enters the
  // cache); the gateway's answers, byte for byte, are what the bare server will send.
  const recorded: Record<string, RecordedAnswer> = {};
  for (const [i, workload] of workloads.entries()) {
    const viaGateway = await post(gatewayUrl, workload.body);
    const expected = resultsOf(await post(chain.rpcUrl, workload.body), 'anvil');
    if (resultsOf(viaGateway, 'the gateway') !== expected) throw new Error(`${workload.name}: the gateway and anvil answered differently`);
    if (baselineUrl && resultsOf(await post(baselineUrl, workload.body), 'the baseline') !== expected)
      throw new Error(`${workload.name}: the baseline and anvil answered differently`);
    recorded[`/${i}`] = viaGateway;
  }
  // The ceiling of one node:http process; beside N processes, direct anvil is the comparison.
  bare = processCount ? undefined : await startBareServer(scratch, recorded);
  loadBefore = waitForQuiet ? await waitForQuietMachine(console.log) : await loadAverage();
  console.log(`1-minute load ${loadBefore.toFixed(2)}: ${rounds} rounds of ${seconds} s per side at ${connections} connections, then ${SERIAL_SECONDS} s at 1`);
  // The server's JIT warms on every workload first: a process's CPU counts its compiler threads too.
  for (const workload of workloads) {
    for (const url of [gatewayUrl, baselineUrl]) if (url) await load.run({ url, body: workload.body, connections, seconds: WARM_UP_SECONDS });
  }
  for (const [i, workload] of workloads.entries()) {
    const run = async (url: string, front: Front | null, conns: number, s: number): Promise<Round> => {
      const read = () => Promise.all([cpuMsOfAll(front?.pids ?? []), cpuMsOfAll(front?.servers ?? []), cpuMsOf(chain.pid), cpuMsOf(load.pid)]);
      const [front0, servers0, anvil0, load0] = await read();
      const started = performance.now();
      const result = await load.run({ url, body: workload.body, connections: conns, seconds: s });
      const wallMs = performance.now() - started;
      const [front1, servers1, anvil1, load1] = await read();
      return {
        ...result,
        frontCpuMs: front1.total - front0.total,
        frontSystemMs: front1.system - front0.system,
        anvilCpuMs: anvil1.total - anvil0.total,
        serversCpuMs: servers1.total - servers0.total,
        loadCpuMs: load1.total - load0.total,
        wallMs,
      };
    };
    const row: Row = { workload, gateway: [], direct: [], bare: [], baseline: [], serialGateway: [], serialDirect: [], serialBaseline: [] };
    /** Rounds of every side, each round starting with the next side: the machine is shared, and load from elsewhere comes and goes. */
    const alternate = async (sides: Array<[string, Front | null, Side]>, conns: number, s: number) => {
      for (let round = 0; round < rounds; round++) {
        for (let k = 0; k < sides.length; k++) {
          const [url, front, side] = sides[(round + k) % sides.length]!;
          side.push(await run(url, front, conns, s));
        }
      }
    };
    const loaded: Array<[string, Front | null, Side]> = [
      [gatewayUrl, gatewayFront, row.gateway],
      [chain.rpcUrl, null, row.direct],
      ...(bare ? [[`${bare.origin}/${i}`, { pids: [bare.pid], servers: [bare.pid] }, row.bare] as [string, Front, Side]] : []),
      ...(baseline && baselineUrl ? [[baselineUrl, { pids: [baseline.pid], servers: [baseline.pid] }, row.baseline] as [string, Front, Side]] : []),
    ];
    for (const [url, front] of loaded) await run(url, front, connections, WARM_UP_SECONDS);
    await alternate(loaded, connections, seconds);
    await alternate(
      [
        [gatewayUrl, gatewayFront, row.serialGateway],
        [chain.rpcUrl, null, row.serialDirect],
        ...(baseline && baselineUrl ? [[baselineUrl, { pids: [baseline.pid], servers: [baseline.pid] }, row.serialBaseline] as [string, Front, Side]] : []),
      ],
      1,
      SERIAL_SECONDS,
    );
    rows.push(row);
    if (!bare) {
      const [g, d] = [combine(row.gateway), combine(row.direct)];
      const busy = coresBusy(row.gateway);
      console.log(
        `${workload.name.padEnd(34)} gateway (${processCount} processes) ${g.requestsPerSecond.toFixed(0).padStart(6)} req/s p50 ${g.p50.toFixed(2)} ms | ` +
          `direct ${d.requestsPerSecond.toFixed(0).padStart(6)} req/s | ratio ${(g.requestsPerSecond / d.requestsPerSecond).toFixed(2)} | ` +
          `cores busy: load generator ${busy.load.toFixed(2)}, server processes ${busy.servers.toFixed(2)}, supervisor and workers ${busy.restOfFront.toFixed(2)}, anvil ${busy.anvil.toFixed(2)}` +
          (g.failures + d.failures ? ` | failures ${g.failures} / ${d.failures}` : ''),
      );
      continue;
    }
    const [g, d, b] = [combine(row.gateway), combine(row.direct), combine(row.bare)];
    const cpu = cpuPerRequest(row.gateway);
    console.log(
      `${workload.name.padEnd(34)} gateway ${g.requestsPerSecond.toFixed(0).padStart(6)} req/s p50 ${g.p50.toFixed(2)} p99 ${g.p99.toFixed(2)} ms | ` +
        `direct ${d.requestsPerSecond.toFixed(0).padStart(6)} req/s p50 ${d.p50.toFixed(2)} p99 ${d.p99.toFixed(2)} ms | bare ${b.requestsPerSecond.toFixed(0)} req/s | ` +
        `ratio ${(g.requestsPerSecond / d.requestsPerSecond).toFixed(2)} | added p50 ${(g.p50 - d.p50).toFixed(2)} ms (1 connection: ${(combine(row.serialGateway).p50 - combine(row.serialDirect).p50).toFixed(3)} ms) | ` +
        `CPU µs/request: server ${cpu.front.toFixed(0)} (kernel ${cpu.frontSystem.toFixed(0)}), bare ${cpuPerRequest(row.bare).front.toFixed(0)}, anvil ${cpu.anvil.toFixed(0)} via the gateway, ${cpuPerRequest(row.direct).anvil.toFixed(0)} direct` +
        (g.failures + d.failures + b.failures ? ` | failures ${g.failures} / ${d.failures} / ${b.failures}` : ''),
    );
    if (baseline) {
      const before = combine(row.baseline);
      console.log(
        `${''.padEnd(34)} baseline ${before.requestsPerSecond.toFixed(0).padStart(5)} req/s p50 ${before.p50.toFixed(2)} ms | ratio ${(before.requestsPerSecond / d.requestsPerSecond).toFixed(2)} | ` +
          `added p50 at 1 connection ${(combine(row.serialBaseline).p50 - combine(row.serialDirect).p50).toFixed(3)} ms | server CPU µs/request ${cpuPerRequest(row.baseline).front.toFixed(0)}` +
          (before.failures ? ` | failures ${before.failures}` : ''),
      );
    }
  }
  loadAfter = await loadAverage();
} finally {
  load.stop();
  await bare?.stop();
  await baseline?.stop();
  await server.stop();
  await chain.stop();
  await rm(fixture.root, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
}

if (only) process.exit(0);

// Hand-written subsections (the comparison with earlier code, what changed) are kept across runs.
const keptSubsections = (heading: string) =>
  readFile(join(import.meta.dirname, '../BENCHMARKS.md'), 'utf8').then(
    (text) => {
      const start = text.indexOf(`## ${heading}\n`);
      const end = start === -1 ? -1 : text.indexOf('\n## ', start + 1);
      const sub = start === -1 ? -1 : text.indexOf('\n### ', start);
      return sub === -1 || (end !== -1 && sub > end) ? '' : text.slice(sub + 1, end === -1 ? undefined : end).trimEnd();
    },
    () => '',
  );

// The options as given, the baseline's checkout named by its label (its path means nothing elsewhere).
const given = process.argv.slice(2).map((arg) => (arg === baselineCheckout ? `<checkout of ${baselineLabel}>` : arg));
const commandOptions = given.length ? ` -- ${given.join(' ')}` : '';
const about = [
  `- Command: \`npm run bench:gateway${commandOptions}\` (autocannon in its own process, ${connections} keep-alive connections with one request in flight on each; ${WARM_UP_SECONDS} s of each workload through the gateway first, then per workload a ${WARM_UP_SECONDS} s warm-up per side, ${rounds} rotating rounds of ${seconds} s per side, then ${rounds} rounds of ${SERIAL_SECONDS} s at 1 connection; anvil (chain ${CHAIN_ID}) with automine, so the chain holds still; one app with 1,000,000 CU/s and a quota it never reaches; request logging off). Figures are the mean req/s over the rounds and the median round's p50/p99, from each 2xx response's own time (autocannon's histogram counts whole milliseconds). CPU ${processCount ? "is read from /proc for every process of the supervisor's tree, anvil and the load generator" : 'per request is read from /proc for the server and anvil processes'} over the rounds.`,
  `- Workloads: ${workloads.map((w) => `${w.name} (${w.description})`).join('; ')}.`,
  `- Machine: ${cpus().length} CPUs (\`nproc\`), ${await cpuModel()}, Node ${process.version}; the load generator, the server${processCount ? "'s processes" : ''} and anvil share the machine`,
  `- 1-minute load average: ${loadBefore.toFixed(2)} when measuring started${waitForQuiet ? '' : ' (not waited for: --no-wait)'}, ${loadAfter.toFixed(2)} at the end`,
  `- Date: ${new Date().toISOString().slice(0, 10)}`,
];

if (processCount) {
  const heading = `Node gateway: ${processCount} server processes`;
  await writeBenchmarksSection(heading, coresSection({ processes: processCount, rows, about, kept: await keptSubsections(heading) }));
  process.exit(0);
}

const fmt = (value: number, digits = 2) => value.toFixed(digits);
const missed: string[] = [];
const throughput = [
  '| workload | gateway req/s | direct req/s | gateway / direct | target | bare node:http req/s | gateway / bare |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...rows.map((row) => {
    const [g, d, b] = [combine(row.gateway), combine(row.direct), combine(row.bare)];
    const ratio = g.requestsPerSecond / d.requestsPerSecond;
    const target = row.workload.cached ? TARGET.cached : TARGET.uncached;
    if (ratio < target) missed.push(`${row.workload.name} reaches ${fmt(ratio)} of direct (target ${target})`);
    return `| ${row.workload.name} | ${g.requestsPerSecond.toFixed(0)} | ${d.requestsPerSecond.toFixed(0)} | ${fmt(ratio)} | ≥ ${target} | ${b.requestsPerSecond.toFixed(0)} | ${fmt(g.requestsPerSecond / b.requestsPerSecond)} |`;
  }),
].join('\n');
const latency = [
  `| workload | gateway p50 / p99 (ms) | direct p50 / p99 (ms) | added p50, ${connections} connections (ms) | added p50, 1 connection (ms) | CPU per request (µs): server (kernel part) / bare node:http | anvil CPU per request (µs): via the gateway / direct |`,
  '|---|---:|---:|---:|---:|---:|---:|',
  ...rows.map((row) => {
    const [g, d] = [combine(row.gateway), combine(row.direct)];
    const added = g.p50 - d.p50;
    const addedSerial = combine(row.serialGateway).p50 - combine(row.serialDirect).p50;
    if (added > TARGET.addedP50Ms)
      missed.push(`${row.workload.name} adds ${fmt(added)} ms at p50 with ${connections} connections (target ≤ ${TARGET.addedP50Ms} ms)`);
    const cpu = cpuPerRequest(row.gateway);
    return `| ${row.workload.name} | ${fmt(g.p50)} / ${fmt(g.p99)} | ${fmt(d.p50)} / ${fmt(d.p99)} | ${fmt(added)} | ${fmt(addedSerial, 3)} | ${cpu.front.toFixed(0)} (${cpu.frontSystem.toFixed(0)}) / ${cpuPerRequest(row.bare).front.toFixed(0)} | ${cpu.anvil.toFixed(0)} / ${cpuPerRequest(row.direct).anvil.toFixed(0)} |`;
  }),
].join('\n');
/** Issue 29's gateway targets: CPU per request at least halved, and per core ≥ 0.5 of bare node:http (≥ 0.8 cached). */
const ISSUE_29 = { cpuCut: 0.5, perCoreUncached: 0.5, perCoreCached: 0.8 };
const issue29 = [
  `Issue 29's targets, from this run: per core (bare node:http's CPU per request over the gateway's) ≥ ${ISSUE_29.perCoreUncached} of bare node:http for uncached calls and ≥ ${ISSUE_29.perCoreCached} for cached ones${baseline ? `; the server's CPU per request at least halved against ${baselineLabel}` : ' (the CPU per request halved against earlier code needs --baseline)'}.`,
  '',
  `| workload | per core against bare node:http | target | met |${baseline ? ` server CPU per request (µs): ${baselineLabel} / this code | change | halved |` : ''}`,
  `|---|---:|---:|---|${baseline ? '---:|---:|---|' : ''}`,
  ...rows.map((row) => {
    const now = cpuPerRequest(row.gateway).front;
    const perCore = cpuPerRequest(row.bare).front / now;
    const target = row.workload.cached ? ISSUE_29.perCoreCached : ISSUE_29.perCoreUncached;
    const cells = [row.workload.name, fmt(perCore), `≥ ${target}`, perCore >= target ? 'yes' : `no (${fmt(perCore / target)} of it)`];
    if (baseline) {
      const before = cpuPerRequest(row.baseline).front;
      const change = now / before - 1;
      cells.push(
        `${before.toFixed(0)} / ${now.toFixed(0)}`,
        `${change > 0 ? '+' : '−'}${Math.abs(100 * change).toFixed(0)}%`,
        now <= before * ISSUE_29.cpuCut ? 'yes' : 'no',
      );
    }
    return `| ${cells.join(' | ')} |`;
  }),
  '',
];
const comparison = baseline
  ? [
      `Against ${baselineLabel} (\`--baseline\`: that checkout's production server, beside this one in the same rounds, on the same anvil and app, in a copy of the database):`,
      '',
      `| workload | ${baselineLabel} req/s | this code req/s | ${baselineLabel} / direct | this code / direct | added p50, 1 connection (ms): ${baselineLabel} / this code | server CPU per request (µs): ${baselineLabel} / this code |`,
      '|---|---:|---:|---:|---:|---:|---:|',
      ...rows.map((row) => {
        const [g, d, before] = [combine(row.gateway), combine(row.direct), combine(row.baseline)];
        const addedBefore = combine(row.serialBaseline).p50 - combine(row.serialDirect).p50;
        const addedNow = combine(row.serialGateway).p50 - combine(row.serialDirect).p50;
        return `| ${row.workload.name} | ${before.requestsPerSecond.toFixed(0)} | ${g.requestsPerSecond.toFixed(0)} | ${fmt(before.requestsPerSecond / d.requestsPerSecond)} | ${fmt(g.requestsPerSecond / d.requestsPerSecond)} | ${fmt(addedBefore, 3)} / ${fmt(addedNow, 3)} | ${cpuPerRequest(row.baseline).front.toFixed(0)} / ${cpuPerRequest(row.gateway).front.toFixed(0)} |`;
      }),
      '',
    ]
  : [];
const failures = rows
  .map((row) => ({
    name: row.workload.name,
    counts: [row.gateway, row.direct, row.bare, ...(baseline ? [row.baseline] : [])].map((side) => combine(side).failures),
  }))
  .filter((row) => row.counts.some(Boolean))
  .map((row) => `${row.name}: ${row.counts.join(' / ')} (gateway / direct / bare${baseline ? ' / baseline' : ''})`);

const kept = await keptSubsections('Node gateway');
const section = [
  '## Node gateway',
  '',
  "JSON-RPC through the node gateway (`POST {node_url}/v2/<key>` on the production server: key lookup, app state and network checks, registry validation, the app's CU rate limit and monthly quota, usage metering and metrics, then the upstream call or the answer cache) against the same anvil called directly, side by side in one run; beside them bare node:http answering the gateway's recorded bytes without reading the request (bench/bare-server.ts), the most any node:http server can do here.",
  '',
  ...about,
  '',
  throughput,
  '',
  latency,
  '',
  `Targets: ≥ ${TARGET.uncached} of direct req/s for uncached calls, ≥ ${TARGET.cached}× direct for cached ones, added p50 ≤ ${TARGET.addedP50Ms} ms. ${missed.length ? `Missed in this run: ${missed.join('; ')}.` : 'All met in this run.'}`,
  '',
  ...issue29,
  ...comparison,
  ...(failures.length ? [`Failed requests: ${failures.join('; ')}.`, ''] : []),
  ...(kept ? [kept, ''] : []),
].join('\n');
await writeBenchmarksSection('Node gateway', section);
