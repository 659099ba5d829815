import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';

// Starts anvil (npm @foundry-rs/anvil) as a child of this process. Every child is stopped
// with the process: on exit, and on SIGINT/SIGTERM.

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

const require = createRequire(import.meta.url);
const running = new Set<ChildProcess>();
let exitHooksInstalled = false;

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
  const args = [
    ...prefixArgs,
    // Port 0: the OS picks a free port and anvil prints it, so concurrent starts never collide.
    '--port',
    '0',
    '--chain-id',
    String(options.chainId),
    ...(options.blockTimeSeconds ? ['--block-time', String(options.blockTimeSeconds)] : []),
    ...(options.extraArgs ?? []),
  ];
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));

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

function installExitHooks(): void {
  if (exitHooksInstalled) return;
  exitHooksInstalled = true;
  const killAll = () => {
    for (const child of running) child.kill('SIGTERM');
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
