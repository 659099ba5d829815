import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Starts anvil (npm @foundry-rs/anvil) as a child of this process. Every child is stopped
// with the process: on exit, and on SIGINT/SIGTERM. Past states anvil writes to disk go to a
// folder of the child's own, removed when it stops, and at most PAST_STATES of them: by default
// anvil keeps 3,600 in ~/.foundry/anvil/tmp and leaves them there (gigabytes for a busy chain).

export interface AnvilOptions {
  chainId: number;
  /** Interval mining; without it anvil mines each transaction at once and `pending` is never seen. */
  blockTimeSeconds?: number;
  /** Extra anvil flags (tests: `--no-mining`, `--balance`, ...). */
  extraArgs?: string[];
}

export interface AnvilProcess {
  rpcUrl: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Past states anvil keeps on disk beyond the (at least 10) it holds in memory, unless the caller
 * passes `--max-persisted-states`: each a whole copy of the state with every block hash (3,600 by
 * default: 2.4 GB after 5,000 blocks of the local world). 16 keeps eth_call about 25 blocks back;
 * blocks and logs are kept whatever this says, and so is what a state file holds.
 */
export const PAST_STATES = 16;

const require = createRequire(import.meta.url);
/** Each running child, with its own past-states folder (null when the caller chose one). */
const running = new Map<ChildProcess, string | null>();
let exitHooksInstalled = false;

/** The genesis second this process last gave a new chain of each chain id. */
const lastGenesisSecond = new Map<number, number>();

/**
 * `--timestamp` for a new chain. A chain is known by its genesis hash (the indexer and the NFT
 * contract facts tell a reset devnet from the chain they knew by it), and anvil's genesis is its
 * start second and its dev accounts: the hash holds no chain id, so two new chains started in one
 * second would be one chain by hash. Each new chain of a chain id this process starts gets a second
 * after the last one's (a second or two ahead of the clock when several start at once). A chain
 * loaded from a state file keeps its genesis, and one whose flags set the genesis is left alone.
 * (A chain of another process is at least the seconds its start took older: a devnet restarted
 * fresh has a new genesis.)
 */
function genesisTimestampArgs(chainId: number, extraArgs: readonly string[]): string[] {
  const flagValue = (flag: string) => (extraArgs.includes(flag) ? extraArgs[extraArgs.indexOf(flag) + 1] : undefined);
  const stateFile = flagValue('--state') ?? flagValue('--load-state');
  const genesisGiven = ['--timestamp', '--init', '--fork-url', '-f', '--rpc-url'].some((flag) => extraArgs.includes(flag));
  if (genesisGiven || (stateFile !== undefined && existsSync(stateFile))) return [];
  const second = Math.max(Math.floor(Date.now() / 1000), (lastGenesisSecond.get(chainId) ?? 0) + 1);
  lastGenesisSecond.set(chainId, second);
  return ['--timestamp', String(second)];
}

/** The platform binary that @foundry-rs/anvil installs; its `bin.mjs` only forwards to it. */
function anvilCommand(): { command: string; prefixArgs: string[] } {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  try {
    return { command: require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/bin/anvil`), prefixArgs: [] };
  } catch {
    return { command: process.execPath, prefixArgs: [require.resolve('@foundry-rs/anvil/bin.mjs')] };
  }
}

export function startAnvil(options: AnvilOptions): Promise<AnvilProcess> {
  installExitHooks();
  const { command, prefixArgs } = anvilCommand();
  const extraArgs = options.extraArgs ?? [];
  const ownStates = extraArgs.includes('--cache-path') ? null : mkdtempSync(join(tmpdir(), 'crucible-anvil-'));
  const args = [
    ...prefixArgs,
    // Port 0: the OS picks a free port and anvil prints it, so concurrent starts never collide.
    '--port',
    '0',
    '--chain-id',
    String(options.chainId),
    ...(options.blockTimeSeconds ? ['--block-time', String(options.blockTimeSeconds)] : []),
    ...(extraArgs.includes('--max-persisted-states') ? [] : ['--max-persisted-states', String(PAST_STATES)]),
    ...(ownStates ? ['--cache-path', ownStates] : []),
    ...genesisTimestampArgs(options.chainId, extraArgs),
    ...extraArgs,
  ];
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.set(child, ownStates);
  child.once('exit', () => {
    running.delete(child);
    removeFolder(ownStates);
  });

  return new Promise((resolve, reject) => {
    let output = '';
    const fail = (reason: string) => {
      child.kill('SIGKILL');
      reject(new Error(`anvil (chain ${options.chainId}) did not start: ${reason}\n${output.slice(-2000)}`));
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /Listening on ([\w.:[\]-]+):(\d+)/.exec(output);
      if (!listening) return;
      child.stdout!.off('data', onData);
      child.off('exit', onEarlyExit);
      // Keep draining block logs so a full pipe never stalls anvil.
      child.stdout!.resume();
      child.stderr!.resume();
      resolve({ rpcUrl: `http://127.0.0.1:${listening[2]}`, pid: child.pid!, stop: () => stopChild(child) });
    };
    const onEarlyExit = (code: number | null, signal: string | null) => fail(`exited early (code ${code}, signal ${signal})`);
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', onEarlyExit);
    child.once('error', (error) => fail(error.message));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function removeFolder(folder: string | null): void {
  if (folder) rmSync(folder, { recursive: true, force: true });
}

function installExitHooks(): void {
  if (exitHooksInstalled) return;
  exitHooksInstalled = true;
  const killAll = () => {
    for (const [child, states] of running) {
      child.kill('SIGTERM');
      // This process is leaving: the child's exit will not be seen.
      removeFolder(states);
    }
  };
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      killAll();
      // Ours was the only handler: keep the default behaviour of the signal (terminate).
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}
