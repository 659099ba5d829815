import type { LoadResult } from './load-generator.ts';

// The node gateway benchmark's rounds and what is read from them: a side is the rounds of one
// target (the gateway, anvil direct, bare node:http, a baseline's server).

export interface Round extends LoadResult {
  /** CPU time during the round (ms) of the processes in front (the server or servers, or the bare server; none direct), its kernel part, and anvil's. */
  frontCpuMs: number;
  frontSystemMs: number;
  anvilCpuMs: number;
  /** Of frontCpuMs, the server processes' (all of it but the supervisor's and the workers' process's with --processes). */
  serversCpuMs: number;
  /** The load generator's CPU time during the round (ms), and the round's wall time. */
  loadCpuMs: number;
  wallMs: number;
}

export type Side = Round[];

/** Mean req/s over the rounds; the median round's (by rate) p50 and p99; failures summed. */
export function combine(side: Side): LoadResult {
  const median = [...side].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(side.length / 2)]!;
  const sum = (pick: (r: Round) => number) => side.reduce((total, r) => total + pick(r), 0);
  return {
    requestsPerSecond: sum((r) => r.requestsPerSecond) / side.length,
    p50: median.p50,
    p99: median.p99,
    requests: sum((r) => r.requests),
    failures: sum((r) => r.failures),
  };
}

/** CPU time per request (µs) over a side's rounds. */
export function cpuPerRequest(side: Side): { front: number; frontSystem: number; anvil: number; load: number } {
  const requests = side.reduce((total, r) => total + r.requests, 0);
  const per = (pick: (r: Round) => number) => (1000 * side.reduce((total, r) => total + pick(r), 0)) / requests;
  return { front: per((r) => r.frontCpuMs), frontSystem: per((r) => r.frontSystemMs), anvil: per((r) => r.anvilCpuMs), load: per((r) => r.loadCpuMs) };
}

/** Cores each part kept busy over a side's rounds: its CPU time over the rounds' wall time. */
export function coresBusy(side: Side): { load: number; servers: number; restOfFront: number; anvil: number } {
  const wall = side.reduce((total, r) => total + r.wallMs, 0);
  const busy = (pick: (r: Round) => number) => side.reduce((total, r) => total + pick(r), 0) / wall;
  return {
    load: busy((r) => r.loadCpuMs),
    servers: busy((r) => r.serversCpuMs),
    restOfFront: busy((r) => r.frontCpuMs - r.serversCpuMs),
    anvil: busy((r) => r.anvilCpuMs),
  };
}
