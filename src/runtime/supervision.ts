import type { Address } from 'viem';
import { createLocalDevnets, type LocalDevnets } from '../chain/local-devnets.ts';
import { loadFaucetNetworks } from '../chain/networks.ts';
import { faucetConfig, platformConfig } from '../config/config.ts';

// What the processes of `npm start` under its supervisor (SERVER_PROCESSES > 1,
// docs/operating-at-scale.md) say to each other over the IPC channel node:cluster opens: the local
// devnets run once, in the supervisor, and each process asks it for a devnet's URL and hears when
// one started; a server process asks the workers' process (through the supervisor) whether a fresh
// devnet's index has reached the head, since the indexer runs there.

/** A process's part: `server` serves HTTP, `workers` runs the background workers. */
export type ProcessRole = 'server' | 'workers';

interface DevnetNetwork {
  id: string;
  chainId: number;
}

/** Every message carries this tag, so other IPC traffic (node:cluster's own) is left alone. */
const TAG = 'crucible';

export type SupervisionMessage =
  | { tag: typeof TAG; kind: 'devnet-url'; id: number; network: DevnetNetwork; fund?: Address }
  | { tag: typeof TAG; kind: 'devnet-started'; network: DevnetNetwork }
  | { tag: typeof TAG; kind: 'devnets-running' }
  | { tag: typeof TAG; kind: 'index-ready'; id: number; network: string }
  | { tag: typeof TAG; kind: 'reply'; id: number; url?: string; error?: string }
  | { tag: typeof TAG; kind: 'listening'; url: string }
  | { tag: typeof TAG; kind: 'started' };

export function isSupervisionMessage(message: unknown): message is SupervisionMessage {
  return typeof message === 'object' && message !== null && (message as { tag?: unknown }).tag === TAG;
}

/** A message of `kind` with its tag. */
export function supervisionMessage(message: DistributiveOmit<SupervisionMessage, 'tag'>): SupervisionMessage {
  return { tag: TAG, ...message } as SupervisionMessage;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** In the supervisor: local mode's devnets, as `npm start` in one process would run them; null outside local mode. */
export async function loadSupervisorDevnets(root: string, siteOrigin: string): Promise<LocalDevnets | null> {
  if (platformConfig().mode !== 'local') return null;
  const faucet = faucetConfig(await loadFaucetNetworks(root));
  return createLocalDevnets({ blockTimeSeconds: faucet.anvilBlockTimeSeconds, stateDir: faucet.devnetStateDir, siteOrigin });
}

/** Sends to the supervisor; a process that lost it (the supervisor died) has nothing to do but wait to be ended. */
function toSupervisor(message: SupervisionMessage): void {
  process.send?.(message);
}

let nextId = 1;
const pending = new Map<number, { resolve(reply: Extract<SupervisionMessage, { kind: 'reply' }>): void }>();
const startListeners = new Set<(network: DevnetNetwork) => void>();
const startedDevnets = new Map<string, DevnetNetwork>();
let indexReadyAnswer: ((network: string) => Promise<void>) | null = null;
let listening = false;

/** Routes the supervisor's messages to this process's parts; once per process. */
function listen(): void {
  if (listening) return;
  listening = true;
  process.on('message', (message: unknown) => {
    if (!isSupervisionMessage(message)) return;
    if (message.kind === 'reply') {
      pending.get(message.id)?.resolve(message);
      pending.delete(message.id);
    } else if (message.kind === 'devnet-started') {
      // Heard once: a devnet may be both announced and listed as running.
      if (startedDevnets.has(message.network.id)) return;
      startedDevnets.set(message.network.id, message.network);
      for (const listener of startListeners) listener(message.network);
    } else if (message.kind === 'index-ready') {
      const reply = (error?: string) => toSupervisor(supervisionMessage({ kind: 'reply', id: message.id, error }));
      if (!indexReadyAnswer) return reply();
      indexReadyAnswer(message.network).then(
        () => reply(),
        (error: unknown) => reply(error instanceof Error ? error.message : String(error)),
      );
    }
  });
  // A process started after a devnet (one started again) asks which already run.
  toSupervisor(supervisionMessage({ kind: 'devnets-running' }));
}

function ask(message: SupervisionMessage & { id: number }): Promise<Extract<SupervisionMessage, { kind: 'reply' }>> {
  listen();
  return new Promise((resolve) => {
    pending.set(message.id, { resolve });
    toSupervisor(message);
  });
}

/** In a supervised process: the supervisor's devnets, behind the interface the runtime's parts take. */
export function devnetsFromSupervisor(): LocalDevnets {
  listen();
  return {
    async rpcUrlFor(network, fund) {
      const reply = await ask({ tag: TAG, kind: 'devnet-url', id: nextId++, network: { id: network.id, chainId: network.chainId }, fund });
      if (reply.error !== undefined || reply.url === undefined) throw new Error(reply.error ?? `the supervisor gave no URL for ${network.id}`);
      return reply.url;
    },
    onStart(listener) {
      startListeners.add(listener);
      for (const network of startedDevnets.values()) listener(network);
      return () => startListeners.delete(listener);
    },
    // The supervisor stops them, after every process it runs.
    async stop() {},
  };
}

/**
 * In a supervised server process: settles once the workers' process says the network's index can
 * answer (its indexer's `ready`), or at once when no workers' process runs. The wait is the
 * indexer's own (INDEXER_CATCH_UP_WAIT_MS).
 */
export function indexReadyFromSupervisor(): (network: string) => Promise<void> {
  return async (network) => {
    await ask({ tag: TAG, kind: 'index-ready', id: nextId++, network });
  };
}

/** In the supervised workers' process: how it answers a server process's `index-ready`. */
export function answerIndexReady(ready: (network: string) => Promise<void>): void {
  listen();
  indexReadyAnswer = ready;
}

/** In a supervised process: tells the supervisor it started (a server process: where it listens; the supervisor prints it once). */
export function sayStarted(url?: string): void {
  toSupervisor(url === undefined ? supervisionMessage({ kind: 'started' }) : supervisionMessage({ kind: 'listening', url }));
}
