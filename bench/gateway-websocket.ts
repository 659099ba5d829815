import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { parseArgs } from 'node:util';
import { dirname, join, resolve } from 'node:path';
import { loadAppKeySecret } from '../src/apps/key-secret.ts';
import { createAppStore } from '../src/apps/store.ts';
import { openDatabase } from '../src/db/open.ts';
import { rpcRegistry } from '../src/node/rpc/registry.ts';
import { startTestAnvil } from '../test/support/anvil.ts';
import { writeFixtureDist } from '../test/support/fixture-dist.ts';
import { startBuiltSite } from '../test/support/site.ts';
import { writeBenchmarksSection } from './benchmarks-file.ts';
import { loadAverage, waitForQuietMachine } from './build/measure.ts';
import { startBaselineServer } from './gateway/processes.ts';
import { startBareFanOut } from './gateway-websocket/bare-fanout.ts';
import { readCpuProfile, summarizeCpuProfile } from './gateway-websocket/cpu-profile.ts';
import { FAN_OUT_STAGES, type FanOutRun, type FanOutRunFile, renderFanOutSection, SECTION_HEADING } from './gateway-websocket/report.ts';
import { combineRounds, type FanOutRound, startSubscriberProcess } from './gateway-websocket/subscribers.ts';

// `npm run bench:gateway:ws [-- --subscribers <n>] [--heads <n>] [--rounds <n>] [--warm-up <n>] [--profile-heads <n>]
// [--no-profile] [--label <text>] [--baseline <git ref>] [--no-wait] [--no-write]`: newHeads fan-out through the node
// gateway's WebSocket side (`{node_url}/v2/<key>` on the production server as a child process, one
// anvil mining a block a second as its upstream, every notification charged to the app and
// metered). A subscriber process opens the connections and times each head's arrival on each of
// them against its arrival on one connection straight to anvil; the same subscribers on a bare
// `ws` fan-out server, in alternating rounds, show what 1,000 socket writes cost here. With
// --baseline, the production server of that commit (its tree from `git archive`, over this
// checkout's node_modules) serves them too, in the same rounds: the gateway before and after a
// change, on the machine as it was. Then, unless --no-profile, a second server under `--cpu-prof`
// serves them again and its profile says where the time went. Writes the `## Node gateway:
// WebSocket fan-out` section of BENCHMARKS.md and the figures to bench/out/gateway-websocket.json.

const { values: args } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '1000' },
    heads: { type: 'string', default: '30' },
    rounds: { type: 'string', default: '3' },
    'warm-up': { type: 'string', default: '3' },
    'profile-heads': { type: 'string', default: '10' },
    'no-profile': { type: 'boolean', default: false },
    label: { type: 'string' },
    baseline: { type: 'string' },
    'no-wait': { type: 'boolean', default: false },
    /** Print and save the figures, but leave BENCHMARKS.md as it is (developing the benchmark). */
    'no-write': { type: 'boolean', default: false },
  },
});
const subscribers = Number(args.subscribers);
const heads = Number(args.heads);
const rounds = Number(args.rounds);
const warmUpHeads = Number(args['warm-up']);
const profileHeads = Number(args['profile-heads']);
const waitForQuiet = !args['no-wait'];
const NETWORK = 'base-sepolia';
const CHAIN_ID = 84532;
/** Each notification's price: the app's rate is twice what the subscribers spend. */
const notificationComputeUnits = rpcRegistry.find('eth_subscribe')?.notificationComputeUnits;
if (!notificationComputeUnits) throw new Error('the method registry gives eth_subscribe no notificationComputeUnits');
const projectRoot = resolve(import.meta.dirname, '..');
const resultsFile = join(projectRoot, 'bench/out/gateway-websocket.json');
/** The profiled server's whole profile, for Chrome DevTools (Performance, "Load profile"). */
const profileFile = join(projectRoot, 'bench/out/gateway-websocket.cpuprofile');
const label = args.label ?? execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: projectRoot, encoding: 'utf8' }).trim();

/** CPU time (user + system) a process has used, in ms: fields 14 and 15 of /proc/<pid>/stat, in 10 ms ticks. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The child of this process whose command line runs `script` (startBuiltSite does not give its pid). */
function childRunning(script: string): number {
  const children = readdirSync(`/proc/${process.pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
  const pid = children.find((child) => readFileSync(`/proc/${child}/cmdline`, 'utf8').includes(script));
  if (pid === undefined) throw new Error(`no child process runs ${script}`);
  return pid;
}

const scratch = await mkdtemp(join(tmpdir(), 'crucible-bench-ws-'));
const fixture = await writeFixtureDist();
const chain = await startTestAnvil({ chainId: CHAIN_ID, blockTimeSeconds: 1 });
const anvilWsUrl = chain.rpcUrl.replace(/^http/, 'ws');
const databasePath = join(scratch, 'crucible.sqlite');
const computeUnitsPerSecond = 2 * subscribers * notificationComputeUnits;
const key = await (async () => {
  const database = await openDatabase({ engine: 'sqlite', path: databasePath });
  const keySecret = await loadAppKeySecret({ engine: 'sqlite', path: databasePath, appKeySecret: null });
  const created = await createAppStore(database, { keySecret, networks: [NETWORK] }).create({ name: 'websocket fan-out bench', computeUnitsPerSecond });
  await database.close();
  return created.key;
})();
// One app holds every subscriber: its connection cap is raised above them (twice, as a round's connections may still be closing when the next opens).
const serverEnv = {
  DATABASE_PATH: databasePath,
  NODE_UPSTREAMS_BASE_SEPOLIA: chain.rpcUrl,
  REQUEST_LOG: 'off',
  NODE_WS_MAX_CONNECTIONS_PER_KEY: String(2 * subscribers),
};
const subscriberProcess = startSubscriberProcess();

type Part = 'server' | 'subscribers' | 'anvil';

/** One run of the subscribers against `url`, with the CPU time each process spent over its measured heads. */
async function measureRound(name: string, url: string, serverPid: number, headCount: number): Promise<{ round: FanOutRound; cpuMs: Record<Part, number> }> {
  const pids: Record<Part, number> = { server: serverPid, subscribers: subscriberProcess.pid, anvil: chain.pid };
  const parts = Object.keys(pids) as Part[];
  const at = { start: { server: 0, subscribers: 0, anvil: 0 }, end: { server: 0, subscribers: 0, anvil: 0 } };
  const round = await subscriberProcess.run({ url, baselineUrl: anvilWsUrl, subscribers, warmUpHeads, heads: headCount }, (edge) => {
    for (const part of parts) at[edge][part] = cpuMs(pids[part]);
  });
  const cpu = Object.fromEntries(parts.map((part) => [part, at.end[part] - at.start[part]])) as Record<Part, number>;
  const heads = round.heads.map((head) => `${head.p99.toFixed(0)}`).join(' ');
  console.log(
    `${name}: ${headCount} heads, server CPU ${(cpu.server / headCount).toFixed(1)} ms per head, ${round.missed} missed, ${round.closed} closed; p99 per head (ms): ${heads}`,
  );
  return { round, cpuMs: cpu };
}

/** The rounds of one server as one run: every delivery pooled, CPU per head over all of them. */
function runOf(measured: Array<{ round: FanOutRound; cpuMs: Record<Part, number> }>): FanOutRun {
  const rounds = measured.map((one) => one.round);
  const headCount = rounds.reduce((sum, round) => sum + round.heads.length, 0);
  const perHead = (part: Part) => measured.reduce((sum, one) => sum + one.cpuMs[part], 0) / headCount;
  return { result: combineRounds(rounds), cpuPerHeadMs: { server: perHead('server'), subscribers: perHead('subscribers'), anvil: perHead('anvil') } };
}

function logRun(name: string, run: FanOutRun): void {
  const { overall, missed } = run.result;
  console.log(
    `${name}: delay p50 ${overall.p50.toFixed(1)} ms, p99 ${overall.p99.toFixed(1)} ms, max ${overall.max.toFixed(1)} ms, ${missed} missed; ` +
      `CPU per head: server ${run.cpuPerHeadMs.server.toFixed(1)} ms, subscriber process ${run.cpuPerHeadMs.subscribers.toFixed(1)} ms`,
  );
}

/** The tree of `ref` in a folder of the scratch, with this checkout's node_modules, and its short commit. */
async function extractBaseline(ref: string): Promise<{ dir: string; commit: string }> {
  const dir = join(scratch, 'baseline');
  await mkdir(dir);
  const archive = execFileSync('git', ['-C', projectRoot, 'archive', '--format=tar', ref], { maxBuffer: 1024 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  await symlink(join(projectRoot, 'node_modules'), join(dir, 'node_modules'));
  return { dir, commit: execFileSync('git', ['-C', projectRoot, 'rev-parse', '--short', ref], { encoding: 'utf8' }).trim() };
}
/** Child processes to stop however the run ends (stopping one twice is harmless). */
const running: Array<{ stop(): Promise<void> }> = [];
let file: FanOutRunFile;
try {
  const server = await startBuiltSite({ distDir: fixture.distDir, env: serverEnv });
  running.push(server);
  const gatewayUrl = `${server.origin.replace(/^http/, 'ws')}/node/${NETWORK}/v2/${key}`;
  const serverPid = childRunning('src/server/main.ts');
  const bare = await startBareFanOut(anvilWsUrl);
  running.push(bare);
  const baselineTree = args.baseline ? await extractBaseline(args.baseline) : null;
  // The baseline's server shares the anvil and the app and key (in a copy of the database its migrations accept).
  const baselineServer = baselineTree
    ? await startBaselineServer(baselineTree.dir, { ...serverEnv, SITE_DIR: fixture.distDir, INDEXER_IN_SERVER: 'off' })
    : null;
  if (baselineServer) running.push(baselineServer);
  const servers = [
    { name: 'gateway', url: gatewayUrl, pid: serverPid, rounds: [] as Array<Awaited<ReturnType<typeof measureRound>>> },
    ...(baselineServer
      ? [
          {
            name: `gateway at ${baselineTree!.commit}`,
            url: `${baselineServer.origin.replace(/^http/, 'ws')}/node/${NETWORK}/v2/${key}`,
            pid: baselineServer.pid,
            rounds: [],
          },
        ]
      : []),
    { name: 'bare ws fan-out', url: bare.url, pid: bare.pid, rounds: [] },
  ];
  const loadAtStart = waitForQuiet ? await waitForQuietMachine((line) => console.log(line)) : await loadAverage();
  // Rotating which server goes first, so that each sees the machine as it changes.
  for (let round = 0; round < rounds; round++) {
    const headCount = Math.floor(heads / rounds) + (round < heads % rounds ? 1 : 0);
    for (let i = 0; i < servers.length; i++) {
      const server = servers[(round + i) % servers.length]!;
      server.rounds.push(await measureRound(`round ${round + 1}, ${server.name}`, server.url, server.pid, headCount));
    }
  }
  const loadAtEnd = await loadAverage();
  await Promise.all([server.stop(), bare.stop(), baselineServer?.stop()]);
  const [gateway, ...others] = servers.map((one) => runOf(one.rounds));
  const bareRun = others.at(-1)!;
  const baselineRun = baselineServer ? { label: baselineTree!.commit, run: others[0]! } : null;
  logRun('gateway', gateway!);
  if (baselineRun) logRun(`gateway at ${baselineRun.label}`, baselineRun.run);
  logRun('bare ws fan-out', bareRun);

  let hotSpots: FanOutRunFile['profile'] = null;
  if (!args['no-profile']) {
    const profileDir = join(scratch, 'profile');
    const profiled = await startBuiltSite({ distDir: fixture.distDir, env: { ...serverEnv, NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` } });
    running.push(profiled);
    const profiledUrl = `${profiled.origin.replace(/^http/, 'ws')}/node/${NETWORK}/v2/${key}`;
    const { round } = await measureRound('gateway under --cpu-prof', profiledUrl, childRunning('src/server/main.ts'), profileHeads);
    await profiled.stop();
    const cpuProfile = await readCpuProfile(profileDir);
    await mkdir(dirname(profileFile), { recursive: true });
    await writeFile(profileFile, JSON.stringify(cpuProfile));
    const summary = summarizeCpuProfile(cpuProfile, round.windowMicros, projectRoot, FAN_OUT_STAGES);
    hotSpots = { heads: profileHeads, windowMicros: round.windowMicros, summary };
  }
  file = {
    label,
    date: new Date().toISOString().slice(0, 10),
    settings: { subscribers, heads, rounds, warmUpHeads, notificationComputeUnits, computeUnitsPerSecond, waited: waitForQuiet },
    load: { start: loadAtStart, end: loadAtEnd },
    gateway: gateway!,
    baseline: baselineRun,
    bare: bareRun,
    profile: hotSpots,
  };
} finally {
  await Promise.all(running.map((child) => child.stop()));
  subscriberProcess.stop();
  await chain.stop();
  await rm(fixture.root, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
}

if (file.profile) {
  const { summary } = file.profile;
  console.log(
    `\nserver CPU profile over ${file.profile.heads} heads: ${summary.busyMs.toFixed(0)} ms busy${summary.windowed ? '' : ' (whole profile: the window missed it)'}`,
  );
  for (const [title, list] of [
    ['by area (self)', summary.byArea],
    ['by function (self)', summary.bySelf],
    ['project and ws functions (with callees)', summary.byTotal],
  ] as const) {
    console.log(`${title}:`);
    for (const spot of list) console.log(`  ${(spot.share * 100).toFixed(1).padStart(5)}%  ${spot.ms.toFixed(1).padStart(8)} ms  ${spot.name}`);
  }
}

await mkdir(dirname(resultsFile), { recursive: true });
await writeFile(resultsFile, `${JSON.stringify(file, null, 2)}\n`);
console.log(`\nWrote ${resultsFile}`);
const section = await renderFanOutSection(file);
if (!args['no-write']) await writeBenchmarksSection(SECTION_HEADING, section);
else console.log(`\n${section}`);
