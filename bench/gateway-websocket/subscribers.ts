import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

// The subscribers of the WebSocket fan-out benchmark, in a process of their own so that they never
// share an event loop with the server they measure: `subscribers` connections to one URL, each with
// one newHeads subscription, and one baseline connection straight to anvil. Every head's arrival on
// every connection is timed in this one process on one clock (performance.now()); a subscriber's
// delay for a head is its arrival minus the baseline's.

interface FanOutJob {
  /** ws:// URL the subscribers connect to: the gateway's `{node_url}/v2/<key>`, or the bare fan-out server. */
  url: string;
  /** anvil's own ws:// URL. */
  baselineUrl: string;
  subscribers: number;
  /** Heads after every subscription is made that are not measured (JIT, first-head costs). */
  warmUpHeads: number;
  heads: number;
}

interface HeadDelays {
  number: number;
  /** Subscribers that received it before the run ended. */
  received: number;
  p50: number;
  p99: number;
  max: number;
}

/** What one run of the subscribers measured. */
export interface FanOutRound {
  subscribers: number;
  /** Time to open every connection and receive every subscription's id. */
  subscribeMs: number;
  heads: HeadDelays[];
  /** Every delivery's delay (ms after the baseline), sorted. */
  delays: number[];
  /** Deliveries of measured heads that had not arrived when the run ended (GRACE_MS after the head that follows the last one). */
  missed: number;
  /** Subscriber connections that closed during the run. */
  closed: number;
  /**
   * The measured window on the machine's monotonic clock in µs (the clock of V8's CPU profiles):
   * from the first measured head's baseline arrival to the arrival of the head after the last, so
   * it holds one fan-out per measured head.
   */
  windowMicros: [number, number];
}

/** The figures of one or more rounds against the same server. */
export interface FanOutResult {
  subscribers: number;
  /** The slowest round's time to subscribe. */
  subscribeMs: number;
  heads: HeadDelays[];
  /** Over every delivery of every measured head, in ms after the baseline. */
  overall: { min: number; p50: number; p99: number; max: number };
  missed: number;
  closed: number;
}

export function combineRounds(rounds: readonly FanOutRound[]): FanOutResult {
  const pooled = Float64Array.from(rounds.flatMap((round) => round.delays)).sort();
  const sum = (of: (round: FanOutRound) => number) => rounds.reduce((total, round) => total + of(round), 0);
  return {
    subscribers: rounds[0]!.subscribers,
    subscribeMs: Math.max(...rounds.map((round) => round.subscribeMs)),
    heads: rounds.flatMap((round) => round.heads),
    overall: { min: pooled[0] ?? Number.NaN, p50: quantile(pooled, 0.5), p99: quantile(pooled, 0.99), max: pooled.at(-1) ?? Number.NaN },
    missed: sum((round) => round.missed),
    closed: sum((round) => round.closed),
  };
}

/** Messages from the subscriber process: the window's edges as they happen (CPU is sampled there), then the result. */
type ChildMessage = { window: 'start' | 'end' } | { result: FanOutRound } | { error: string };

/** How long deliveries of the last measured head are waited for after the next head reached the baseline. */
export const GRACE_MS = 2_000;
/** Connections being opened at once. */
const OPENING_AT_ONCE = 50;
const SUBSCRIBE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] });
const NUMBER_FIELD = Buffer.from('"number":"');

/** The head number in a newHeads notification, read from its bytes without parsing the whole message. */
function headNumberOf(data: Buffer): number | null {
  const at = data.indexOf(NUMBER_FIELD);
  if (at === -1) return null;
  const start = at + NUMBER_FIELD.length;
  return Number(data.toString('latin1', start, data.indexOf(0x22, start)));
}

const micros = () => Number(process.hrtime.bigint() / 1000n);

/** Sorted ascending; `q` in (0, 1]. */
function quantile(sorted: Float64Array, q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : Number.NaN;
}

/** Opens one connection and subscribes; `onHead` gets each notification's head number with its arrival time. */
function subscribe(url: string, onHead: (number: number, at: number) => void, onClose: () => void = () => undefined): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    let subscribed = false;
    ws.on('open', () => ws.send(SUBSCRIBE));
    ws.on('message', (data: Buffer) => {
      const at = performance.now();
      if (subscribed) {
        const number = headNumberOf(data);
        if (number !== null) onHead(number, at);
        return;
      }
      const answer = JSON.parse(data.toString('utf8')) as { id?: unknown; result?: unknown; error?: { message: string } };
      if (answer.id !== 1) return;
      if (typeof answer.result !== 'string') return reject(new Error(`eth_subscribe was refused: ${answer.error?.message ?? data.toString('utf8')}`));
      subscribed = true;
      resolve(ws);
    });
    ws.on('error', (error) => reject(error));
    ws.on('close', (code) => {
      if (subscribed) onClose();
      else reject(new Error(`the connection closed (${code}) before its subscription was made`));
    });
  });
}

async function runJob(job: FanOutJob, tell: (message: ChildMessage) => void): Promise<FanOutRound> {
  const baselineAt = new Map<number, number>();
  /** Arrival times by head number, one slot per subscriber (NaN: not yet). */
  const arrivals = new Map<number, Float64Array>();
  const order: number[] = [];
  let measuring = false;
  let windowStart = 0;
  let finish: (windowEnd: number) => void;
  const finished = new Promise<number>((resolve) => (finish = resolve));

  const baseline = await subscribe(job.baselineUrl, (number, at) => {
    if (!measuring || baselineAt.has(number)) return;
    baselineAt.set(number, at);
    order.push(number);
    if (order.length === job.warmUpHeads + 1) {
      windowStart = micros();
      tell({ window: 'start' });
    } else if (order.length === job.warmUpHeads + job.heads + 1) {
      tell({ window: 'end' });
      finish(micros());
    }
  });

  const sockets: WebSocket[] = [];
  let closed = 0;
  const subscribeStarted = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(OPENING_AT_ONCE, job.subscribers) }, async () => {
      while (next < job.subscribers) {
        const index = next++;
        const onHead = (number: number, at: number) => {
          let row = arrivals.get(number);
          if (!row) arrivals.set(number, (row = new Float64Array(job.subscribers).fill(Number.NaN)));
          if (Number.isNaN(row[index]!)) row[index] = at;
        };
        sockets.push(await subscribe(job.url, onHead, () => closed++));
      }
    }),
  );
  const subscribeMs = performance.now() - subscribeStarted;
  measuring = true;
  const windowEnd = await finished;
  await new Promise((resolve) => setTimeout(resolve, GRACE_MS));
  const closedDuringRun = closed;
  for (const ws of [...sockets, baseline]) ws.terminate();

  const measured = order.slice(job.warmUpHeads, job.warmUpHeads + job.heads);
  const all = new Float64Array(measured.length * job.subscribers);
  let count = 0;
  const heads = measured.map((number): HeadDelays => {
    const base = baselineAt.get(number)!;
    const row = arrivals.get(number) ?? new Float64Array(0);
    const delays = row
      .filter((at) => !Number.isNaN(at))
      .map((at) => at - base)
      .sort();
    all.set(delays, count);
    count += delays.length;
    return { number, received: delays.length, p50: quantile(delays, 0.5), p99: quantile(delays, 0.99), max: delays.at(-1) ?? Number.NaN };
  });
  return {
    subscribers: job.subscribers,
    subscribeMs,
    heads,
    delays: Array.from(all.subarray(0, count).sort()),
    missed: measured.length * job.subscribers - count,
    closed: closedDuringRun,
    windowMicros: [windowStart, windowEnd],
  };
}

export interface SubscriberProcess {
  pid: number;
  /** Runs one job; `onWindow` is called as the measured window opens and closes. */
  run(job: FanOutJob, onWindow: (edge: 'start' | 'end') => void): Promise<FanOutRound>;
  stop(): void;
}

export function startSubscriberProcess(): SubscriberProcess {
  const child = fork(fileURLToPath(import.meta.url), ['--subscriber-process'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return {
    pid: child.pid!,
    run: (job, onWindow) =>
      new Promise((resolve, reject) => {
        const onExit = (code: number | null) => reject(new Error(`the subscriber process exited with ${code}`));
        const onMessage = (message: ChildMessage) => {
          if ('window' in message) return onWindow(message.window);
          child.off('message', onMessage);
          child.off('exit', onExit);
          if ('result' in message) resolve(message.result);
          else reject(new Error(`the subscriber process failed: ${message.error}`));
        };
        child.on('message', onMessage);
        child.once('exit', onExit);
        child.send(job);
      }),
    stop: () => void child.kill(),
  };
}

if (process.argv.includes('--subscriber-process')) {
  // A benchmark that dies leaves no connections behind.
  process.once('disconnect', () => process.exit(0));
  const tell = (message: ChildMessage) => process.send!(message);
  process.on('message', (job: FanOutJob) => {
    runJob(job, tell).then(
      (result) => tell({ result }),
      (error: unknown) => tell({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
}
