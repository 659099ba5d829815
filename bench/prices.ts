import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadAppKeySecret } from '../src/apps/key-secret.ts';
import { createAppStore } from '../src/apps/store.ts';
import { openDatabase } from '../src/db/open.ts';
import { bucketStart, currentPrices, PRICE_INTERVALS, pricePoints } from '../src/prices/store.ts';
import { writeFixtureDist } from '../test/support/fixture-dist.ts';
import { type BuiltSite, startBuiltSite } from '../test/support/site.ts';
import { cpuModel, writeBenchmarksSection } from './benchmarks-file.ts';
import { loadAverage, waitForQuietMachine } from './build/measure.ts';
import { childPid, cpuMsOf } from './gateway/processes.ts';
import { type ProfileSummary, readCpuProfile, summarizeCpuProfile } from './gateway-websocket/cpu-profile.ts';
import { benchTokens, type HistoryShape, recordSyntheticHistory, recordSyntheticRound, writeTokenContent } from './prices/data.ts';
import { type LoadJob, type LoadResult, runLoad } from './prices/load.ts';
import { quantile } from './quantile.ts';

// `npm run bench:prices [-- --quick] [--seconds <n>] [--rounds <n>] [--connections <n>] [--no-wait] [--no-write] [--no-profile]`:
// the prices endpoints (docs/prices.md#endpoints) through the production server (`node src/server/main.ts` over a
// fixture build, its content folder holding a token list of 25 tokens, PRICES_IN_SERVER=off so no
// sampler touches the rows, an app key with 1,000,000 CU/s) on a SQLite file prepared beforehand
// through recordSample: a year of rounds, hourly then every 5 minutes for the last 30 days. Measured
// at 32 connections in rotating rounds: `GET …/tokens/by-symbol` with the 25 symbols and `POST
// …/tokens/historical` for a year of `1d` points, against the limit: the same store functions
// (currentPrices, pricePoints) asking the same file for the same data in a loop in this process.
// Then a second server under --cpu-prof serves each endpoint once more, and its profile says where
// the server's time goes. A full run writes the `## Prices` section of BENCHMARKS.md; --quick (a
// shorter history, one short round) writes nothing.

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean' },
    seconds: { type: 'string' },
    rounds: { type: 'string' },
    connections: { type: 'string', default: '32' },
    'no-wait': { type: 'boolean' },
    'no-write': { type: 'boolean' },
    'no-profile': { type: 'boolean' },
  },
});
const quick = args.quick ?? false;
const seconds = Number(args.seconds ?? (quick ? 3 : 10));
const rounds = Number(args.rounds ?? (quick ? 1 : 3));
const connections = Number(args.connections);
const warmUpSeconds = quick ? 1 : 3;
const PROFILE_SECONDS = 5;
const SYMBOLS = 25;
const history: HistoryShape = { days: 365, fiveMinuteDays: quick ? 2 : 30 };
const QUIET_LOAD = 1.5;
const projectRoot = resolve(import.meta.dirname, '..');

const sideNames = ['bySymbol', 'bySymbolLimit', 'historical', 'historicalLimit'] as const;
type SideName = (typeof sideNames)[number];
type ServerSide = 'bySymbol' | 'historical';
const serverSides: readonly ServerSide[] = ['bySymbol', 'historical'];
const limitOf: Record<ServerSide, SideName> = { bySymbol: 'bySymbolLimit', historical: 'historicalLimit' };

/** One timed run of a side: every answer's time, and the CPU the answering process spent on them. */
interface Run extends LoadResult {
  cpuMs: number;
}

const log = (line: string) => console.log(line);
const micros = () => Number(process.hrtime.bigint() / 1000n);
const scratch = await mkdtemp(join(tmpdir(), 'crucible-bench-prices-'));
const fixture = await writeFixtureDist();
const tokens = benchTokens(SYMBOLS);
const symbols = tokens.map((token) => token.symbol);
/** The one symbol whose year of `1d` points is asked for. */
const historicalSymbol = symbols[0]!;
const contentDir = await writeTokenContent(scratch, tokens);
const databasePath = join(scratch, 'crucible.sqlite');
const database = await openDatabase({ engine: 'sqlite', path: databasePath });
const db = database.db;

const runs = Object.fromEntries(sideNames.map((name) => [name, [] as Run[]])) as Record<SideName, Run[]>;
const running: BuiltSite[] = [];
let loadBefore = 0;
let loadAfter = 0;
const prepared = { rounds: 0, seconds: 0, points: { '5m': 0, '1h': 0, '1d': 0 }, observations: 0 };
let yearPoints = 0;
let profiles: Record<ServerSide, ProfileSummary> | null = null;
try {
  const apps = createAppStore(database, {
    keySecret: await loadAppKeySecret({ engine: 'sqlite', path: databasePath, appKeySecret: null }),
    networks: ['ethereum-sepolia'],
  });
  // The highest rate an app may have, and a monthly quota that is counted but never reached.
  const { key } = await apps.create({ name: 'prices benchmark', computeUnitsPerSecond: 1_000_000, monthlyComputeUnitQuota: Number.MAX_SAFE_INTEGER });

  const end = Date.now();
  log(`recording ${history.days} days of synthetic rounds for ${SYMBOLS} tokens (hourly, then every 5 minutes for the last ${history.fiveMinuteDays} days)`);
  const preparing = performance.now();
  prepared.rounds = await recordSyntheticHistory(db, tokens, history, end, log);
  prepared.seconds = (performance.now() - preparing) / 1000;
  for (const interval of ['5m', '1h', '1d'] as const) {
    const { count } = await db
      .selectFrom('price_points')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('interval', '=', interval)
      .executeTakeFirstOrThrow();
    prepared.points[interval] = Number(count);
  }
  prepared.observations = Number(
    (
      await db
        .selectFrom('price_observations')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow()
    ).count,
  );
  log(
    `${prepared.rounds} rounds in ${prepared.seconds.toFixed(1)} s: points 5m ${prepared.points['5m']}, 1h ${prepared.points['1h']}, 1d ${prepared.points['1d']}; ${prepared.observations} observations`,
  );

  // The requests, and what the limit asks of the same file: the endpoints' own store calls.
  const bySymbolPath = `/prices/v1/${key}/tokens/by-symbol?${symbols.map((symbol) => `symbols=${symbol}`).join('&')}`;
  const yearStart = end - 365 * PRICE_INTERVALS['1d'];
  const historicalBody = JSON.stringify({
    symbol: historicalSymbol,
    startTime: new Date(yearStart).toISOString(),
    endTime: new Date(end).toISOString(),
    interval: '1d',
  });
  // As the endpoint reads the range: from the first boundary at or after startTime.
  const firstDay = bucketStart(yearStart + PRICE_INTERVALS['1d'] - 1, '1d');
  const queries = {
    bySymbolLimit: () => currentPrices(db, symbols),
    historicalLimit: () => pricePoints(db, historicalSymbol, '1d', firstDay, end),
  };
  yearPoints = (await queries.historicalLimit()).length;
  const jobs: Record<ServerSide, Omit<LoadJob, 'origin' | 'seconds'>> = {
    bySymbol: { method: 'GET', path: bySymbolPath, connections },
    historical: { method: 'POST', path: `/prices/v1/${key}/tokens/historical`, body: historicalBody, connections },
  };

  const startServer = async (env: Record<string, string> = {}) => {
    const site = await startBuiltSite({
      distDir: fixture.distDir,
      env: { DATABASE_PATH: databasePath, CRUCIBLE_CONTENT_DIR: contentDir, PRICES_IN_SERVER: 'off', REQUEST_LOG: 'off', ...env },
    });
    running.push(site);
    return { site, pid: await childPid('src/server/main.ts') };
  };

  /** Throws unless the server prices every symbol and answers the year's points (a stale or empty answer would be cheaper). */
  const checkAnswers = async (origin: string) => {
    const bySymbol = (await (await fetch(`${origin}${bySymbolPath}`)).json()) as { data?: Array<{ prices: unknown[]; error: unknown }> };
    const priced = bySymbol.data?.filter((item) => item.prices.length === 1 && item.error === null).length ?? 0;
    if (priced !== SYMBOLS) throw new Error(`by-symbol priced ${priced} of ${SYMBOLS} symbols: ${JSON.stringify(bySymbol).slice(0, 500)}`);
    const answer = await fetch(`${origin}${jobs.historical.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: historicalBody });
    const historical = (await answer.json()) as { data?: unknown[] };
    if (historical.data?.length !== yearPoints)
      throw new Error(`historical answered ${historical.data?.length} points, the store ${yearPoints}: ${JSON.stringify(historical).slice(0, 500)}`);
  };

  /** A side's warm-up, then its timed run with the server's CPU over it and the run's window on the monotonic clock. */
  const serverRun = async (side: ServerSide, origin: string, pid: number, timed: number) => {
    await runLoad({ ...jobs[side], origin, seconds: warmUpSeconds });
    const cpuBefore = await cpuMsOf(pid);
    const from = micros();
    const result = await runLoad({ ...jobs[side], origin, seconds: timed });
    const windowMicros: [number, number] = [from, micros()];
    const cpuMs = (await cpuMsOf(pid)).total - cpuBefore.total;
    return { run: { ...result, cpuMs }, windowMicros };
  };

  /** The store function in a loop, one call at a time (node:sqlite answers on this thread): a warm-up, then the timed run. */
  const limitRun = async (query: () => Promise<unknown>): Promise<Run> => {
    const loop = async (length: number) => {
      const times: number[] = [];
      const started = performance.now();
      const deadline = started + length * 1000;
      while (performance.now() < deadline) {
        const at = performance.now();
        await query();
        times.push(performance.now() - at);
      }
      return { times, seconds: (performance.now() - started) / 1000 };
    };
    await loop(warmUpSeconds);
    const cpuBefore = process.cpuUsage();
    const timed = await loop(seconds);
    const cpu = process.cpuUsage(cpuBefore);
    return { ...timed, failures: 0, firstFailure: null, cpuMs: (cpu.user + cpu.system) / 1000 };
  };

  const server = await startServer();
  loadBefore = args['no-wait'] ? await loadAverage() : await waitForQuietMachine(log, QUIET_LOAD, 60);
  log(
    `1-minute load ${loadBefore.toFixed(2)}: ${rounds} rounds of ${seconds} s per side (after ${warmUpSeconds} s of warm-up each) at ${connections} connections`,
  );
  for (let round = 0; round < rounds; round++) {
    // A round of the sampler's, as every 5 minutes, so the current prices stay fresh (the server answers an error for a stale one).
    await recordSyntheticRound(db, tokens, Date.now());
    if (round === 0) await checkAnswers(server.site.origin);
    // Each round starts with the next side, so none always follows the same one.
    for (let k = 0; k < sideNames.length; k++) {
      const name = sideNames[(round + k) % sideNames.length]!;
      const run =
        name === 'bySymbolLimit' || name === 'historicalLimit'
          ? await limitRun(queries[name])
          : (await serverRun(name, server.site.origin, server.pid, seconds)).run;
      runs[name].push(run);
      const inRound = figuresOf([run]);
      log(
        `round ${round + 1} ${name.padEnd(15)} ${inRound.perSecond.toFixed(0).padStart(6)}/s, p50 ${inRound.p50.toFixed(2)} ms, p99 ${inRound.p99.toFixed(2)} ms, CPU ${inRound.cpuMsEach.toFixed(3)} ms each` +
          (run.failures ? ` | ${run.failures} failed: ${run.firstFailure}` : ''),
      );
    }
  }
  await checkAnswers(server.site.origin);
  loadAfter = await loadAverage();
  await server.site.stop();

  if (!args['no-profile']) {
    const profileDir = join(scratch, 'profile');
    const profiled = await startServer({ NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` });
    await recordSyntheticRound(db, tokens, Date.now());
    const windows = {} as Record<ServerSide, [number, number]>;
    for (const side of serverSides) windows[side] = (await serverRun(side, profiled.site.origin, profiled.pid, PROFILE_SECONDS)).windowMicros;
    await profiled.site.stop();
    const profile = await readCpuProfile(profileDir);
    profiles = {
      bySymbol: summarizeCpuProfile(profile, windows.bySymbol, projectRoot),
      historical: summarizeCpuProfile(profile, windows.historical, projectRoot),
    };
  }
} finally {
  await Promise.all(running.map((site) => site.stop()));
  await database.close();
  await rm(fixture.root, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
}

interface Figures {
  perSecond: number;
  p50: number;
  p99: number;
  answered: number;
  failures: number;
  firstFailure: string | null;
  cpuMsEach: number;
}

/** Over every answer of the runs: answers per second over their time together, p50 and p99 of their times, CPU per answer. */
function figuresOf(side: Run[]): Figures {
  const times = side.flatMap((run) => run.times);
  const total = side.reduce((sum, run) => sum + run.seconds, 0);
  return {
    perSecond: times.length / total,
    p50: quantile(times, 0.5),
    p99: quantile(times, 0.99),
    answered: times.length,
    failures: side.reduce((sum, run) => sum + run.failures, 0),
    firstFailure: side.find((run) => run.firstFailure)?.firstFailure ?? null,
    cpuMsEach: side.reduce((sum, run) => sum + run.cpuMs, 0) / Math.max(1, times.length),
  };
}

const figures = Object.fromEntries(sideNames.map((name) => [name, figuresOf(runs[name])])) as Record<SideName, Figures>;
const ms = (value: number) => value.toFixed(value < 1 ? 3 : 2);
const label: Record<SideName, string> = {
  bySymbol: `server: \`GET …/tokens/by-symbol\` with ${SYMBOLS} symbols, ${connections} connections`,
  bySymbolLimit: `limit: \`currentPrices\` for the ${SYMBOLS} symbols, one call at a time`,
  historical: `server: \`POST …/tokens/historical\`, a year of \`1d\` (${yearPoints} points), ${connections} connections`,
  historicalLimit: `limit: \`pricePoints\` for the same year, one call at a time`,
};
const table = [
  '| side | answers/s | p50 (ms) | p99 (ms) | answered | failed | CPU per answer (ms) |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...sideNames.map((name) => {
    const f = figures[name];
    return `| ${label[name]} | ${f.perSecond.toFixed(0)} | ${ms(f.p50)} | ${ms(f.p99)} | ${f.answered} | ${f.failures} | ${ms(f.cpuMsEach)} |`;
  }),
].join('\n');
const ratios = [
  "| endpoint | server / limit: answers/s | server / limit: p50 | server / limit: CPU per answer | the query's share of the server's CPU per request |",
  '|---|---:|---:|---:|---:|',
  ...serverSides.map((side) => {
    const server = figures[side];
    const limit = figures[limitOf[side]];
    return `| ${side === 'bySymbol' ? 'by-symbol' : 'historical'} | ${(server.perSecond / limit.perSecond).toFixed(3)} | ${(server.p50 / limit.p50).toFixed(1)}× | ${(server.cpuMsEach / limit.cpuMsEach).toFixed(1)}× | ${((100 * limit.cpuMsEach) / server.cpuMsEach).toFixed(0)}% |`;
  }),
].join('\n');
log(`\n${table}\n\n${ratios}\n`);

const profileLines = (side: ServerSide): string[] => {
  const summary = profiles?.[side];
  if (!summary) return [];
  const areas = summary.byArea
    .slice(0, 6)
    .map((area) => `${area.name} ${(100 * area.share).toFixed(0)}%`)
    .join(', ');
  const functions = summary.bySelf
    .slice(0, 4)
    .map((fn) => `\`${fn.name}\` ${(100 * fn.share).toFixed(0)}%`)
    .join(', ');
  return [
    `- ${side === 'bySymbol' ? 'by-symbol' : 'historical'} (${summary.busyMs.toFixed(0)} ms busy in ${PROFILE_SECONDS} s): by area, ${areas}; by function, ${functions}.`,
  ];
};
if (profiles) for (const side of serverSides) log(profileLines(side)[0]!);

const cpu = await cpuModel();
const out = join(import.meta.dirname, 'out');
await mkdir(out, { recursive: true });
await writeFile(
  join(out, 'prices.json'),
  `${JSON.stringify({ connections, seconds, rounds, history, prepared, yearPoints, cpu, loadBefore, loadAfter, figures, profiles }, null, 2)}\n`,
);
const failed = sideNames.filter((name) => figures[name].failures > 0).map((name) => `${name} ${figures[name].failures} (first: ${figures[name].firstFailure})`);
if (!quick && !args['no-write']) {
  await writeBenchmarksSection(
    'Prices',
    [
      '## Prices',
      '',
      `The prices endpoints (docs/prices.md#endpoints) through the production server at ${connections} connections, against the limit: the database's own time for the same data, through the same store functions on the same SQLite file.`,
      '',
      `- Command: \`npm run bench:prices\` (${rounds} rotating rounds of ${seconds} s per side, each after ${warmUpSeconds} s of warm-up; autocannon in a process of its own per run, ${connections} keep-alive connections with one request in flight on each; the limit's loop in the benchmark's process).`,
      `- Data: a token list of ${SYMBOLS} tokens (content/tokens/ in the server's content folder, each priced by one feed on ethereum-sepolia) and a SQLite file prepared through \`recordSample\`, as the sampler writes it: ${prepared.rounds.toLocaleString('en')} synthetic rounds of all ${SYMBOLS} tokens over ${history.days} days, one an hour and every 5 minutes for the last ${history.fiveMinuteDays} (${prepared.seconds.toFixed(0)} s): ${prepared.points['5m'].toLocaleString('en')} \`5m\`, ${prepared.points['1h'].toLocaleString('en')} \`1h\` and ${prepared.points['1d'].toLocaleString('en')} \`1d\` points, ${prepared.observations.toLocaleString('en')} observations. Each round of measuring starts with one more round recorded, so the current prices are fresh.`,
      `- Server: \`node src/server/main.ts\` over a fixture build, \`CRUCIBLE_CONTENT_DIR\` at that content folder, \`PRICES_IN_SERVER=off\` (no sampler), request logging off, every other setting at its default; one app key with 1,000,000 CU/s and a quota it never reaches. CPU per answer: the server process's, from /proc, over the timed runs; the limit's, this process's.`,
      `- Limit: \`currentPrices(db, <the ${SYMBOLS} symbols>)\` and \`pricePoints(db, '${historicalSymbol}', '1d', …)\` for the endpoint's range, called one at a time (node:sqlite answers on the calling thread, as it does in the server) through the same kysely layer.`,
      `- Machine: ${cpus().length} CPUs (\`nproc\`), ${cpu}, Node ${process.version}; the load generator, the server and the limit's loop share the machine`,
      `- 1-minute load average: ${loadBefore.toFixed(2)} when measuring started${args['no-wait'] ? ' (not waited for: --no-wait)' : ''}, ${loadAfter.toFixed(2)} at the end`,
      `- Date: ${new Date().toISOString().slice(0, 10)}`,
      '',
      table,
      '',
      ratios,
      '',
      'Figures are over every answer of the rounds: answers per second over their time together, p50/p99 of their own times. At 32 connections a server answer waits its turn behind the others (its p50 is about 32 divided by the rate), while the limit is one call with nothing queued, so the answers/s ratio is the one to compare. There is no numeric target for this benchmark.',
      '',
      ...(profiles
        ? [
            `Where the server's time goes (a second server under \`--cpu-prof\`, ${PROFILE_SECONDS} s of each endpoint at ${connections} connections, self time of the busy samples in each endpoint's window):`,
            '',
            ...serverSides.flatMap(profileLines),
            '',
          ]
        : []),
      ...(failed.length ? [`Failed answers: ${failed.join('; ')}.`, ''] : []),
    ].join('\n'),
  );
}
