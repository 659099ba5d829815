import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startAnvil } from '../src/chain/anvil.ts';
import { startPostgres, type TestPostgres } from '../test/support/postgres.ts';
import { cpuModel, writeBenchmarksSection } from './benchmarks-file.ts';
import { loadAverage, waitForQuietMachine } from './build/measure.ts';
import { cpuMsOf } from './gateway/processes.ts';
import { readCpuProfile, summarizeCpuProfile } from './gateway-websocket/cpu-profile.ts';
import { fillChain, type FillShape } from './indexer/fill.ts';
import type { SideResult, SideSample } from './indexer/side.ts';

// `npm run bench:indexer [-- --quick] [--rounds <n>] [--transfers <n>] [--holders <n>] [--tokens <n>] [--per-block <n>] [--no-postgres] [--no-wait] [--no-write] [--cpu-prof <dir>]`:
// the transfer indexer's backfill against the node's limit. A fresh anvil is filled with ERC-20
// transfers (bench/indexer/fill.ts: 200,000 across 1,000 holders and 50 tokens by default, 100 a
// block); then, in rotating rounds, each side backfills blocks 0..head in a process of its own
// (bench/indexer/side.ts): a bare eth_getLogs loop in the indexer's own range sizes (the limit:
// logs per second), and createTransferIndexer on a fresh SQLite file and a fresh PostgreSQL
// database (transfers ingested per second), with RSS and heap sampled every 500 ms. A full run
// writes the `## Transfer indexer: backfill` section of BENCHMARKS.md; --quick (20,000 transfers,
// 100 holders, 10 tokens, one round, SQLite only) does not. --cpu-prof <dir> profiles each indexer
// side (node --cpu-prof) and prints its self time by area of code over the backfill; nothing is written.
// --baseline <git ref> adds the indexer of that revision on each engine, side by side (its bench/indexer/side.ts,
// from `git archive`, over this checkout's node_modules): what the changes since it cost or bought.

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean' },
    rounds: { type: 'string' },
    transfers: { type: 'string' },
    holders: { type: 'string' },
    tokens: { type: 'string' },
    'per-block': { type: 'string' },
    'no-postgres': { type: 'boolean' },
    'no-wait': { type: 'boolean' },
    'no-write': { type: 'boolean' },
    'cpu-prof': { type: 'string' },
    baseline: { type: 'string' },
  },
});
const quick = args.quick ?? false;
const shape: FillShape = {
  transfers: Number(args.transfers ?? (quick ? 20_000 : 200_000)),
  holders: Number(args.holders ?? (quick ? 100 : 1000)),
  tokens: Number(args.tokens ?? (quick ? 10 : 50)),
  perBlock: Number(args['per-block'] ?? 100),
  seed: 12,
};
const rounds = Number(args.rounds ?? (quick ? 1 : 2));
const withPostgres = !(args['no-postgres'] || quick);
const CHAIN_ID = 7357012;
const TARGET_RATIO = 0.5;
/** The machine is shared: figures are taken below this 1-minute load. */
const QUIET_LOAD = 1.5;
const FLAT_GROWTH = 1.1;

type SideName = 'bare' | 'sqlite' | 'postgres' | 'sqlite-baseline' | 'postgres-baseline';
const baselineRef = args.baseline ?? null;
interface Run extends SideResult {
  side: SideName;
  round: number;
  anvilCpuMs: number;
  /** Where `node --cpu-prof` wrote this run's profile (--cpu-prof, indexer sides). */
  profileDir: string | null;
}

const log = (line: string) => console.log(line);
const scratch = await mkdtemp(join(tmpdir(), 'crucible-bench-indexer-'));
// No automine: the fill mines one block per transaction, and the chain holds still while it is read.
const anvil = await startAnvil({ chainId: CHAIN_ID, extraArgs: ['--no-mining'] });
let postgres: TestPostgres | null = null;
const runs: Run[] = [];
let loadBefore = 0;
let loadAfter = 0;
let fill: Awaited<ReturnType<typeof fillChain>>;
try {
  log(
    `filling anvil with ${shape.transfers.toLocaleString('en')} transfers across ${shape.holders} holders and ${shape.tokens} tokens, ${shape.perBlock} a block`,
  );
  fill = await fillChain(anvil.rpcUrl, shape, log);
  log(
    `filled in ${fill.fillSeconds.toFixed(1)} s (${Math.round(shape.transfers / fill.fillSeconds)} transfers/s; solc ${fill.compileSeconds.toFixed(1)} s before it): ${fill.transactions} transactions, head ${fill.head}`,
  );
  if (withPostgres) postgres = await startPostgres();
  const baselineDir = baselineRef ? await extractBaseline(baselineRef) : null;

  const engines: SideName[] = withPostgres ? ['sqlite', 'postgres'] : ['sqlite'];
  const sides: SideName[] = ['bare', ...engines, ...(baselineDir ? engines.map((engine) => `${engine}-baseline` as SideName) : [])];
  loadBefore = args['no-wait'] ? await loadAverage() : await waitForQuietMachine(log, QUIET_LOAD, 60);
  log(`1-minute load ${loadBefore.toFixed(2)}: ${rounds} rounds of ${sides.join(', ')}`);
  for (let round = 0; round < rounds; round++) {
    // Each round starts with the next side, so none always runs first.
    for (let k = 0; k < sides.length; k++) {
      const side = sides[(round + k) % sides.length]!;
      const target =
        side === 'bare'
          ? []
          : side.startsWith('sqlite')
            ? ['--sqlite', join(scratch, `round-${round}-${side}.sqlite`)]
            : ['--postgres', await postgres!.createDatabase()];
      const anvilCpu0 = await cpuMsOf(anvil.pid);
      const profileDir = args['cpu-prof'] && side !== 'bare' ? join(args['cpu-prof'], `round-${round + 1}-${side}`) : null;
      const root = side.endsWith('-baseline') ? baselineDir! : resolve(import.meta.dirname, '..');
      const result = await runSide(side === 'bare' ? 'bare' : 'indexer', target, profileDir, root);
      const run: Run = { ...result, side, round, anvilCpuMs: (await cpuMsOf(anvil.pid)).total - anvilCpu0.total, profileDir };
      runs.push(run);
      log(
        `round ${round + 1} ${side.padEnd(8)} ${run.items} in ${run.seconds.toFixed(2)} s: ${Math.round(run.items / run.seconds)
          .toString()
          .padStart(
            6,
          )}/s, peak RSS ${mib(run.peakRssBytes)} MiB, CPU ${Math.round(run.cpuMs)} ms (anvil ${run.anvilCpuMs} ms)${run.errors.length ? ` | errors: ${run.errors.join('; ')}` : ''}`,
      );
      if (run.items !== shape.transfers) throw new Error(`${side} counted ${run.items} transfers, not ${shape.transfers}`);
    }
  }
  loadAfter = await loadAverage();
} finally {
  await postgres?.stop();
  await anvil.stop();
  await rm(scratch, { recursive: true, force: true });
}

/** The tree of `ref` in a folder of the scratch, with this checkout's node_modules. */
async function extractBaseline(ref: string): Promise<string> {
  const root = resolve(import.meta.dirname, '..');
  const dir = join(scratch, 'baseline');
  await mkdir(dir);
  const archive = execFileSync('git', ['-C', root, 'archive', '--format=tar', ref], { maxBuffer: 1024 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  await symlink(join(root, 'node_modules'), join(dir, 'node_modules'));
  log(`baseline: ${ref} (${execFileSync('git', ['-C', root, 'rev-parse', '--short', ref], { encoding: 'utf8' }).trim()}) in ${dir}`);
  return dir;
}

function runSide(side: 'bare' | 'indexer', extra: string[], profileDir: string | null, root: string): Promise<SideResult> {
  const child = spawn(
    process.execPath,
    [
      ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
      join(root, 'bench/indexer/side.ts'),
      '--side',
      side,
      '--rpc',
      anvil.rpcUrl,
      '--head',
      String(fill.head),
      '--chain',
      String(CHAIN_ID),
      ...extra,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = output.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !line.startsWith('{')) reject(new Error(`the ${side} side exited with code ${code}`));
      else resolve(JSON.parse(line) as SideResult);
    });
  });
}

function mib(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(0);
}

const rate = (run: Run) => run.items / run.seconds;
/** Where the indexer runs began recording internal transfers: the first block anvil would trace. */
function tracedFromText(): string {
  const blocks = [...new Set(runs.filter((run) => run.internalFromBlock != null).map((run) => run.internalFromBlock))];
  return blocks.length ? `block ${blocks.join(' or ')} (of ${fill!.head})` : 'none';
}
const of = (side: SideName) => runs.filter((run) => run.side === side);
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const sideNames = [...new Set(runs.map((run) => run.side))];
const bareRate = mean(of('bare').map(rate));

/** Heap and RSS when 25/50/75/100% of the items were done: the first sample at or past each. */
function trend(run: Run): string {
  return [0.25, 0.5, 0.75, 1]
    .map((fraction) => {
      const at = run.samples.find((sample) => sample.done >= fraction * run.items) ?? run.samples.at(-1)!;
      return `${mib(at.heapUsed)} / ${mib(at.rss)}`;
    })
    .join(' · ');
}

const label: Record<SideName, string> = {
  bare: 'bare eth_getLogs loop (logs/s)',
  sqlite: 'indexer on SQLite (transfers/s)',
  postgres: 'indexer on PostgreSQL (transfers/s)',
  'sqlite-baseline': `indexer at ${baselineRef} on SQLite (transfers/s)`,
  'postgres-baseline': `indexer at ${baselineRef} on PostgreSQL (transfers/s)`,
};
const table = [
  `| side | ${Array.from({ length: rounds }, (_, r) => `round ${r + 1}`).join(' | ')} | mean | indexer / bare | peak RSS (MiB) | CPU per 1,000 (ms): side / anvil |`,
  `|---|${'---:|'.repeat(rounds)}---:|---:|---:|---:|`,
  ...sideNames.map((side) => {
    const sideRuns = of(side);
    const sideRate = mean(sideRuns.map(rate));
    const items = sideRuns.reduce((sum, run) => sum + run.items, 0);
    const cpu = (pick: (run: Run) => number) => ((1000 * sideRuns.reduce((sum, run) => sum + pick(run), 0)) / items).toFixed(0);
    return `| ${label[side]} | ${sideRuns.map((run) => Math.round(rate(run)).toString()).join(' | ')} | ${Math.round(sideRate)} | ${side === 'bare' ? '' : (sideRate / bareRate).toFixed(2)} | ${mib(Math.max(...sideRuns.map((run) => run.peakRssBytes)))} | ${cpu((run) => run.cpuMs)} / ${cpu((run) => run.anvilCpuMs)} |`;
  }),
].join('\n');
/** The highest value of `pick` among the samples taken in the first and in the second half of the items. */
function peaks(run: Run, pick: (sample: SideSample) => number): { first: number; second: number } {
  const peak = (inHalf: (done: number) => boolean) => Math.max(0, ...run.samples.filter((sample) => inHalf(sample.done)).map(pick));
  return { first: peak((done) => done <= run.items / 2), second: peak((done) => done > run.items / 2) };
}
const halves = (run: Run, pick: (sample: SideSample) => number) => `${mib(peaks(run, pick).first)} / ${mib(peaks(run, pick).second)}`;
const memory = [
  '| run | heap used / RSS (MiB) at 25% · 50% · 75% · 100% of the transfers | highest RSS (MiB): first half / second half | highest heap used (MiB): first half / second half | samples |',
  '|---|---|---:|---:|---:|',
  ...runs.map(
    (run) =>
      `| round ${run.round + 1}, ${run.side} | ${trend(run)} | ${halves(run, (sample) => sample.rss)} | ${halves(run, (sample) => sample.heapUsed)} | ${run.samples.length} |`,
  ),
].join('\n');
const ranges = of('bare')[0]!.ranges;
const rangeSizes = [...new Set(ranges)].map((size) => `${ranges.filter((r) => r === size).length} × ${size}`).join(', ');
console.log(`\n${table}\n\n${memory}\n\neth_getLogs ranges (blocks): ${rangeSizes}`);

for (const run of runs.filter((run) => run.profileDir)) {
  const summary = summarizeCpuProfile(await readCpuProfile(run.profileDir!), run.window, resolve(import.meta.dirname, '..'));
  console.log(
    `\nround ${run.round + 1}, ${run.side}: ${summary.busyMs.toFixed(0)} ms busy of ${(run.seconds * 1000).toFixed(0)} ms, self time by area of code:`,
  );
  for (const area of summary.byArea) console.log(`  ${(100 * area.share).toFixed(1).padStart(5)}%  ${area.ms.toFixed(0).padStart(6)} ms  ${area.name}`);
}

const ratios = sideNames.filter((side) => side !== 'bare' && !side.endsWith('-baseline')).map((side) => ({ side, ratio: mean(of(side).map(rate)) / bareRate }));
/** Each engine's indexer against the baseline's on the same engine: what the changes since the baseline cost (below 1) or bought. */
const againstBaseline = ratios
  .filter((entry) => of(`${entry.side}-baseline` as SideName).length > 0)
  .map((entry) => ({ side: entry.side, ratio: mean(of(entry.side).map(rate)) / mean(of(`${entry.side}-baseline` as SideName).map(rate)) }));
const baselineText = againstBaseline.length
  ? `Against the indexer at ${baselineRef}, in the same rounds: ${againstBaseline.map((entry) => `${entry.side} ${entry.ratio.toFixed(2)}× its rate`).join(', ')}.`
  : '';
if (baselineText) console.log(baselineText);
const missed = ratios.filter((entry) => entry.ratio < TARGET_RATIO);
// Memory is called flat when no indexer run's RSS rose in the second half of the transfers past FLAT_GROWTH times its first half's
// peak: a process whose memory grew with the transfers would keep rising. The heap saws with the collector; RSS holds its peak.
const growth = Math.max(
  ...runs
    .filter((run) => run.side !== 'bare' && !run.side.endsWith('-baseline'))
    .map((run) => {
      const rss = peaks(run, (sample) => sample.rss);
      return rss.second / rss.first;
    }),
);
const memoryVerdict = `${growth <= FLAT_GROWTH ? 'Memory flat' : '**Memory grew**'}: the highest RSS in the second half of the transfers is at most ${growth.toFixed(2)}× the first half's in every indexer run (flat: ≤ ${FLAT_GROWTH}×).`;
console.log(`indexer / bare: ${ratios.map((entry) => `${entry.side} ${entry.ratio.toFixed(2)}`).join(', ')} (target ≥ ${TARGET_RATIO}). ${memoryVerdict}`);
// A profiled run is slower than a measured one: its figures are not written.
if (!quick && !args['no-write'] && !args['cpu-prof']) {
  const section = [
    '## Transfer indexer: backfill',
    '',
    `The transfer indexer (\`createTransferIndexer\`, src/indexer/) backfilling a filled anvil from block 0 to its head, against the rate at which the same anvil hands the same logs to a bare \`eth_getLogs\` loop: the limit.`,
    '',
    `- Command: \`npm run bench:indexer${baselineRef ? ` -- --baseline ${baselineRef}` : ''}\` (${rounds} rounds, each side in a process of its own, the first side rotating per round).`,
    `- Chain: a fresh anvil (\`--no-mining\`, each block mined by the fill) filled with ${shape.transfers.toLocaleString('en')} ERC-20 Transfer logs across ${shape.holders.toLocaleString('en')} holders and ${shape.tokens} tokens (bench/indexer/fill.ts): ${shape.tokens} \`WorldToken\`s from the committed artifact minted to holder 0, which funds every other holder with every token (${(shape.tokens * (shape.holders - 1)).toLocaleString('en')} transfers), then random transfers between holders, each holder an address with code set by \`anvil_setCode\` that sends when a batching contract (bench/indexer/BenchTransfers.sol, compiled with solc in the run) asks; ${shape.perBlock} transfers a block, head at block ${fill!.head}. The fill took ${fill!.fillSeconds.toFixed(1)} s (${Math.round(shape.transfers / fill!.fillSeconds).toLocaleString('en')} transfers/s, ${fill!.transactions.toLocaleString('en')} transactions), after ${fill!.compileSeconds.toFixed(1)} s of solc.`,
    `- Bare side: one \`eth_getLogs\` at a time with the indexer's topic filter (its six followed events, no address), over blocks 0..${fill!.head} in the ranges the indexer's range rule picks (src/indexer/range-size.ts: 100 blocks first, doubled under half of the 10,000-log cap, halved above it, at most 2,000): ${rangeSizes} blocks; each answer fetched and parsed as JSON, logs counted.`,
    `- Indexer side: \`createTransferIndexer\` with the defaults \`npm start\` runs (ranges as above up to the reorg window, the last 128 blocks one by one, 32 a step, confirmations 0) on a fresh SQLite file${withPostgres ? ' and on a fresh PostgreSQL 15 database (test/support/postgres.ts: fsync off)' : ''}, from start() until its checkpoint is the head; every transfer counted against the rows stored. The indexer records native transfers too: every header of each range is read, and each block with a transaction is traced (\`debug_traceBlockByHash\` with \`callTracer\`, the newest of a range first; here one transaction a block, whose trace holds ${shape.perBlock * 2} calls); the chain moves no ether, so each block gives one external transfer of zero. Anvil keeps the state of its recent blocks only: it refused to trace blocks before ${tracedFromText()}; a range whose newest block it refused is not traced further, and its blocks' external transfers came from \`eth_getBlockByHash\` instead (one call a block; their receipts are not read, since every transaction here emitted Transfer logs and so succeeded).${baselineRef ? ` Baseline sides: the same, with the indexer of \`${baselineRef}\` (its bench/indexer/side.ts from \`git archive\`, over this checkout's node_modules).` : ''} Memory is the process's own (\`process.memoryUsage()\` every 500 ms, peak RSS from \`process.resourceUsage()\`).`,
    `- Machine: ${cpus().length} CPUs (\`nproc\`), ${await cpuModel()}, Node ${process.version}; the side, anvil${withPostgres ? ' and PostgreSQL' : ''} share the machine`,
    `- 1-minute load average: ${loadBefore.toFixed(2)} when measuring started${args['no-wait'] ? ' (not waited for: --no-wait)' : ''}, ${loadAfter.toFixed(2)} at the end`,
    `- Date: ${new Date().toISOString().slice(0, 10)}`,
    '',
    table,
    '',
    memory,
    '',
    `Target: the indexer ingests at ≥ ${TARGET_RATIO} of the bare loop's rate, with flat memory. ${
      missed.length === 0
        ? `Met in this run (${ratios.map((entry) => `${entry.side} ${entry.ratio.toFixed(2)}`).join(', ')}).`
        : `**Missed** in this run: ${missed.map((entry) => `${entry.side} reaches ${entry.ratio.toFixed(2)} of the bare loop`).join('; ')}.`
    } ${memoryVerdict}${baselineText ? ` ${baselineText}` : ''}`,
    '',
  ].join('\n');
  await writeBenchmarksSection('Transfer indexer: backfill', section);
}
