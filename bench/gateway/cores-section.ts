import { type Side, combine, coresBusy, cpuPerRequest } from './rounds.ts';
import type { Workload } from './workloads.ts';

// The `## Node gateway: N server processes` section of BENCHMARKS.md (`npm run bench:gateway --
// --processes <n>`): the gateway as `npm start` runs it on every core, against the same anvil
// called directly, with what each process of the machine spent while it was measured.

interface CoresRow {
  workload: Workload;
  gateway: Side;
  direct: Side;
  serialGateway: Side;
  serialDirect: Side;
}

export function coresSection(run: {
  processes: number;
  rows: CoresRow[];
  /** The lines the single-process section gives too (command, machine, load, date). */
  about: string[];
  /** Hand-written subsections kept from the last run. */
  kept: string;
}): string {
  const { processes, rows } = run;
  const fmt = (value: number, digits = 2) => value.toFixed(digits);
  const throughput = [
    '| workload | gateway req/s | direct req/s | gateway / direct | gateway p50 / p99 (ms) | direct p50 / p99 (ms) | added p50, 1 connection (ms) |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map((row) => {
      const [g, d] = [combine(row.gateway), combine(row.direct)];
      const addedSerial = combine(row.serialGateway).p50 - combine(row.serialDirect).p50;
      return `| ${row.workload.name} | ${g.requestsPerSecond.toFixed(0)} | ${d.requestsPerSecond.toFixed(0)} | ${fmt(g.requestsPerSecond / d.requestsPerSecond)} | ${fmt(g.p50)} / ${fmt(g.p99)} | ${fmt(d.p50)} / ${fmt(d.p99)} | ${fmt(addedSerial, 3)} |`;
    }),
  ].join('\n');
  const split = [
    '| workload | calls | load generator | gateway: server processes | gateway: supervisor and workers’ process | anvil | all three | CPU per request (µs): load generator / gateway / anvil |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...rows.flatMap((row) =>
      (
        [
          ['through the gateway', row.gateway],
          ['to anvil directly', row.direct],
        ] as const
      ).map(([calls, side]) => {
        const busy = coresBusy(side);
        const cpu = cpuPerRequest(side);
        const total = busy.load + busy.servers + busy.restOfFront + busy.anvil;
        const front = side === row.direct ? '–' : cpu.front.toFixed(0);
        return `| ${row.workload.name} | ${calls} | ${fmt(busy.load)} | ${fmt(busy.servers)} | ${fmt(busy.restOfFront)} | ${fmt(busy.anvil)} | ${fmt(total)} | ${cpu.load.toFixed(0)} / ${front} / ${cpu.anvil.toFixed(0)} |`;
      }),
    ),
  ].join('\n');
  const plainly = rows.map((row) => {
    const [g, d] = [combine(row.gateway), combine(row.direct)];
    const busy = coresBusy(row.gateway);
    return `- ${row.workload.name}: with ${processes} server processes the gateway answers ${g.requestsPerSecond.toFixed(0)} req/s, ${fmt(g.requestsPerSecond / d.requestsPerSecond)} of the ${d.requestsPerSecond.toFixed(0)} req/s anvil answers directly; meanwhile the load generator keeps ${fmt(busy.load)} of the 2 cores busy, the gateway's processes ${fmt(busy.servers + busy.restOfFront)} and anvil ${fmt(busy.anvil)}.`;
  });
  const failures = rows
    .map((row) => ({ name: row.workload.name, counts: [row.gateway, row.direct].map((side) => combine(side).failures) }))
    .filter((row) => row.counts.some(Boolean))
    .map((row) => `${row.name}: ${row.counts.join(' / ')} (gateway / direct)`);
  return [
    `## Node gateway: ${processes} server processes`,
    '',
    `JSON-RPC through the node gateway as \`npm start\` runs it on every core: SERVER_PROCESSES=${processes} server processes sharing one port under the supervisor (scripts/start.ts, src/server/supervisor.ts: node:cluster hands each new connection to one of them in turn), with the workers' process beside them, over the same built site, database, app and anvil as the single-process section above (NODE_UPSTREAMS_BASE_SEPOLIA; no devnet), with the indexer and the price sampler off (the sampler would start a devnet of its own), against that anvil called directly, side by side in one run.`,
    '',
    ...run.about,
    '',
    throughput,
    '',
    `Where the machine's CPU went, in cores kept busy over the rounds (CPU time read from /proc over the rounds' wall time; the machine has 2). The gateway is every process of the supervisor's tree: its ${processes} server processes, and the supervisor with the workers' process. What the three do not add up to of 2 is idle or went to other work on the machine.`,
    '',
    split,
    '',
    ...plainly,
    '',
    ...(failures.length ? [`Failed requests: ${failures.join('; ')}.`, ''] : []),
    ...(run.kept ? [run.kept, ''] : []),
  ].join('\n');
}
