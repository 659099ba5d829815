import { cpus } from 'node:os';
import { cpuModel } from '../benchmarks-file.ts';
import type { ProfileSummary, TimeShare } from './cpu-profile.ts';
import { type FanOutResult, GRACE_MS } from './subscribers.ts';

// The `## Node gateway: WebSocket fan-out` section of BENCHMARKS.md, from one run's figures (with
// --baseline, the gateway of an earlier commit measured in the same rounds: before and after).

export const SECTION_HEADING = 'Node gateway: WebSocket fan-out';
/** The target: 1,000 newHeads subscribers on one process receive each head within 50 ms at p99. */
const TARGET_P99_MS = 50;

/** The parts of a fan-out the section names, by the functions they run under (labels as cpu-profile.ts writes them). */
export const FAN_OUT_STAGES = {
  /** ws's framing and the socket write (the writev syscall, which on loopback also does the receiving side's TCP work). */
  sending: ['send (ws/lib/websocket.js'],
  /** Asking for each notification's charge, and each batch's rate limit, monthly quota, usage record and metrics. */
  charging: ['charge (src/node/websocket/notification-charges.ts', 'chargeNotifications (src/node/gateway.ts'],
};

export interface FanOutRun {
  result: FanOutResult;
  /** CPU time (user + system) each process spent per measured head, in ms. */
  cpuPerHeadMs: { server: number; subscribers: number; anvil: number };
}

/** What bench/out/gateway-websocket.json holds: one run. */
export interface FanOutRunFile {
  /** Which code was measured (the commit, unless --label says otherwise). */
  label: string;
  date: string;
  settings: {
    subscribers: number;
    heads: number;
    rounds: number;
    warmUpHeads: number;
    notificationComputeUnits: number;
    computeUnitsPerSecond: number;
    waited: boolean;
  };
  load: { start: number; end: number };
  gateway: FanOutRun;
  /** The gateway of an earlier commit (--baseline), in the same rounds. */
  baseline: { label: string; run: FanOutRun } | null;
  bare: FanOutRun;
  profile: { heads: number; windowMicros: [number, number]; summary: ProfileSummary } | null;
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : '–');
const count = (value: number) => value.toLocaleString('en-US');
const slowHeads = (run: FanOutRun) => run.result.heads.filter((head) => !(head.p99 <= TARGET_P99_MS)).length;
const deliveries = (run: FanOutRun) => run.result.heads.reduce((sum, head) => sum + head.received, 0);
const medianHeadP99 = (run: FanOutRun) => {
  const p99s = run.result.heads.map((head) => head.p99).sort((a, b) => a - b);
  return p99s[Math.floor(p99s.length / 2)] ?? Number.NaN;
};
const percent = (share: number) => `${(share * 100).toFixed(share < 0.1 ? 1 : 0)}%`;

function row(name: string, run: FanOutRun): string {
  const { overall, missed } = run.result;
  return `| ${name} | ${count(deliveries(run))} | ${count(missed)} | ${ms(overall.p50)} | ${ms(overall.p99)} | ${ms(overall.max)} | ${ms(medianHeadP99(run))} | ${slowHeads(run)} of ${run.result.heads.length} | ${ms(run.cpuPerHeadMs.server)} | ${ms(run.cpuPerHeadMs.subscribers)} |`;
}

function profileTable(title: string, list: TimeShare[], heads: number): string[] {
  return [
    `| ${title} | share | ms per head |`,
    '|---|---:|---:|',
    ...list.map((spot) => `| ${spot.name.replaceAll('|', '\\|')} | ${(spot.share * 100).toFixed(1)}% | ${(spot.ms / heads).toFixed(2)} |`),
    '',
  ];
}

function verdict(file: FanOutRunFile): string {
  const { gateway, bare, settings } = file;
  const { overall, missed } = gateway.result;
  const met = overall.p99 <= TARGET_P99_MS && missed === 0;
  const subscribersText = count(settings.subscribers);
  const head = `Target: ${subscribersText} newHeads subscribers on one process receive each head within ${TARGET_P99_MS} ms p99.`;
  const figures =
    `p99 ${ms(overall.p99)} ms over every delivery, ${slowHeads(gateway)} of ${gateway.result.heads.length} heads with a p99 above ${TARGET_P99_MS} ms ` +
    `(the median head's ${ms(medianHeadP99(gateway))} ms), ${count(missed)} deliveries missed`;
  const cpu =
    `the server spent ${ms(gateway.cpuPerHeadMs.server)} ms of CPU per head on ${subscribersText} subscribers, against ${ms(bare.cpuPerHeadMs.server)} ms for the bare fan-out's same sends, ` +
    `and the subscriber process ${ms(gateway.cpuPerHeadMs.subscribers)} ms to read them. On this 2-core machine a subscriber's delay is the server's work for the subscribers served before it plus the reading of the messages read before it, ` +
    `which is why even the bare fan-out's p99 is ${ms(bare.result.overall.p99)} ms here; a head that meets the server busy with anything else (a garbage collection, another process on the shared machine) delays all ${subscribersText} of its deliveries, and one head in ${gateway.result.heads.length} is more than 1% of them.`;
  const stages = file.profile?.summary.stages;
  const split = stages
    ? ` In the server's profile, ${percent(stages.sending ?? 0)} of the busy time is the sends themselves (ws's framing and the writev syscall, the bare fan-out's work too) and ${percent(stages.charging ?? 0)} is charging the notifications (naming each one's payer, then per payer and head one rate limit, monthly quota, usage record and Prometheus count for the batch); the rest is the delivery queue, microtasks and reading the upstream's message.`
    : '';
  return met
    ? `${head} Met in this run: ${figures}. The ${cpu.slice('the '.length)}${split}`
    : `${head} Missed in this run: ${figures}. Where the time goes: ${cpu}${split}`;
}

export async function renderFanOutSection(file: FanOutRunFile): Promise<string> {
  const { settings, gateway, baseline, bare, profile } = file;
  const subscribersText = count(settings.subscribers);
  const lines = [
    `## ${SECTION_HEADING}`,
    '',
    `newHeads fan-out through the node gateway's WebSocket side: ${subscribersText} subscribers on one production server process (\`{node_url}/v2/<key>\`, one upstream subscription to anvil for all of them; each notification charged ${settings.notificationComputeUnits} CU against the app's rate and monthly quota, metered, then sent), each head's arrival at every subscriber timed against its arrival on one connection straight to anvil, in one process on one clock. Beside it in the same run, the same subscribers on a bare \`ws\` fan-out server (one upstream subscription; each head parsed and serialized once, then one send per subscriber, nothing else): what ${subscribersText} socket writes per head cost on this machine.`,
    '',
    `- Command: \`npm run bench:gateway:ws${baseline ? ` -- --baseline ${baseline.label}` : ''}\` (${subscribersText} subscribers in a process of their own, opened 50 at a time, one newHeads subscription each; anvil --block-time 1; ${settings.heads} measured heads per server in ${settings.rounds} rounds that rotate which server goes first, each round on new connections with ${settings.warmUpHeads} warm-up heads; one app with a rate of ${count(settings.computeUnitsPerSecond)} CU/s, twice what the notifications spend, and the default monthly quota; request logging off). A delay is a subscriber's arrival minus the baseline connection's; a delivery not there ${GRACE_MS / 1000} s after the next head is counted missed. CPU per head is each process's user + system time over the measured heads (10 ms ticks) divided by their number.`,
    `- Machine: ${cpus().length} CPUs (\`nproc\`), ${await cpuModel()}, Node ${process.version}; the subscribers, the server and anvil share the machine`,
    `- 1-minute load average: ${file.load.start.toFixed(2)} when measuring started${settings.waited ? '' : ' (not waited for: --no-wait)'}, ${file.load.end.toFixed(2)} at the end`,
    `- Date: ${file.date}; code: ${file.label}`,
    '',
    "| server | deliveries | missed | delay p50 (ms) | p99 (ms) | max (ms) | median head's p99 (ms) | heads with p99 > 50 ms | server CPU per head (ms) | subscriber process CPU per head (ms) |",
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    row('node gateway', gateway),
    ...(baseline ? [row(`node gateway at ${baseline.label} (before)`, baseline.run)] : []),
    row('bare ws fan-out', bare),
    '',
    `Each head's p99 through the gateway, in order (ms): ${gateway.result.heads.map((head) => ms(head.p99)).join(', ')}.`,
    '',
    verdict(file),
    '',
  ];
  if (profile) {
    const { summary, heads } = profile;
    lines.push(
      '### Where the server spends its time during the fan-out',
      '',
      `A second server process under \`node --cpu-prof\`, the same ${subscribersText} subscribers, ${heads} measured heads; samples within the measured window${summary.windowed ? '' : ' (the window missed the profile: every sample)'}: ${ms(summary.busyMs / heads)} ms busy per head. Self time by area of code and by function, then the project's and ws's functions with what they call.`,
      '',
      ...profileTable('area (self time)', summary.byArea, heads),
      ...profileTable('function (self time)', summary.bySelf, heads),
      ...profileTable('project or ws function (with callees)', summary.byTotal, heads),
    );
  }
  if (baseline) {
    const runs = [
      { name: `${baseline.label} (before)`, run: baseline.run },
      { name: `${file.label} (after)`, run: gateway },
    ];
    lines.push(
      '### Before and after',
      '',
      `The gateway of ${baseline.label} and of ${file.label}, served from the same database and anvil to the same subscriber process in the same rounds (the first server rotating per round), so both met the machine as it was; the server's CPU per head is the figure other work on the machine moves least.`,
      '',
      "| code | delay p50 (ms) | p99 (ms) | max (ms) | median head's p99 (ms) | heads with p99 > 50 ms | missed | server CPU per head (ms) | subscriber process CPU per head (ms) |",
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...runs.map(
        ({ name, run }) =>
          `| ${name} | ${ms(run.result.overall.p50)} | ${ms(run.result.overall.p99)} | ${ms(run.result.overall.max)} | ${ms(medianHeadP99(run))} | ${slowHeads(run)} of ${run.result.heads.length} | ${count(run.result.missed)} | ${ms(run.cpuPerHeadMs.server)} | ${ms(run.cpuPerHeadMs.subscribers)} |`,
      ),
      '',
    );
  }
  return lines.join('\n');
}
