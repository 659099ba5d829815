import cluster, { type Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';
import type { ServerConfig } from '../config/server.ts';
import { isSupervisionMessage, loadSupervisorDevnets, supervisionMessage, type ProcessRole, type SupervisionMessage } from '../runtime/supervision.ts';
import { loadSurfaceRules } from './surface-rules.ts';

// `npm start` with SERVER_PROCESSES above 1 (docs/operating-at-scale.md): this process, the
// supervisor, serves nothing itself. It runs the local devnets once, forks SERVER_PROCESSES server
// processes that share the port (node:cluster hands each connection to one of them) and one process
// for the background workers, relays what they ask each other (src/runtime/supervision.ts), and
// starts again any that dies. A process that dies before any of its role ever started is a start-up
// failure (a database it cannot reach, say): the supervisor stops everything and exits 1.

const processEntry = fileURLToPath(new URL('./supervised-process.ts', import.meta.url));

interface Supervised {
  role: ProcessRole;
  /** It said it started (a server: it listens). */
  started: boolean;
}

export async function superviseUntilStopped(config: ServerConfig, root: string): Promise<{ url: string }> {
  const log = (message: string, fields: Record<string, unknown> = {}) =>
    console.log(JSON.stringify({ level: 'info', component: 'supervisor', message, ...fields }));
  const rules = await loadSurfaceRules(config.distDir);
  const devnets = await loadSupervisorDevnets(root, rules.site);
  const processes = new Map<Worker, Supervised>();
  let stopping = false;
  const listening = Promise.withResolvers<string>();

  /** Relayed `index-ready` questions: the id sent to the workers' process → who asked, under which id. */
  const relayed = new Map<number, { from: Worker; id: number }>();
  let nextRelayId = 1;
  /** Roles of which a process started once: one dying after that is restarted, never before. */
  const everStarted = new Set<ProcessRole>();
  const send = (worker: Worker, message: SupervisionMessage) => {
    if (worker.isConnected()) worker.send(message);
  };

  const fork = (role: ProcessRole) => {
    cluster.setupPrimary({ exec: processEntry, args: [role] });
    const worker = cluster.fork();
    processes.set(worker, { role, started: false });
    worker.on('message', (message: unknown) => void answer(worker, message));
  };

  async function answer(worker: Worker, message: unknown): Promise<void> {
    if (!isSupervisionMessage(message)) return;
    const supervised = processes.get(worker);
    if (message.kind === 'listening' || message.kind === 'started') {
      if (supervised) supervised.started = true;
      if (supervised) everStarted.add(supervised.role);
      if (message.kind === 'listening') listening.resolve(message.url);
    } else if (message.kind === 'devnet-url') {
      try {
        const url = await devnets!.rpcUrlFor(message.network, message.fund);
        send(worker, supervisionMessage({ kind: 'reply', id: message.id, url }));
      } catch (error) {
        send(worker, supervisionMessage({ kind: 'reply', id: message.id, error: error instanceof Error ? error.message : String(error) }));
      }
    } else if (message.kind === 'devnets-running') {
      for (const network of running) send(worker, supervisionMessage({ kind: 'devnet-started', network }));
    } else if (message.kind === 'index-ready') {
      const workers = [...processes].find(([candidate, entry]) => entry.role === 'workers' && entry.started && candidate.isConnected())?.[0];
      if (!workers) return send(worker, supervisionMessage({ kind: 'reply', id: message.id }));
      const id = nextRelayId++;
      relayed.set(id, { from: worker, id: message.id });
      send(workers, supervisionMessage({ kind: 'index-ready', id, network: message.network }));
    } else if (message.kind === 'reply') {
      const asker = relayed.get(message.id);
      relayed.delete(message.id);
      if (asker) send(asker.from, supervisionMessage({ ...message, id: asker.id }));
    }
  }

  // Every process hears of each devnet once it has started (the indexer follows it from then), and a
  // process that starts later of those already running, when it asks.
  const running: Array<{ id: string; chainId: number }> = [];
  devnets?.onStart((network) => {
    running.push({ id: network.id, chainId: network.chainId });
    for (const worker of processes.keys()) send(worker, supervisionMessage({ kind: 'devnet-started', network: { id: network.id, chainId: network.chainId } }));
  });

  cluster.on('exit', (worker, code, signal) => {
    const supervised = processes.get(worker);
    processes.delete(worker);
    if (!supervised || stopping) return;
    // Questions the dead workers' process will not answer: the askers stop waiting.
    if (supervised.role === 'workers') {
      for (const asker of relayed.values()) send(asker.from, supervisionMessage({ kind: 'reply', id: asker.id }));
      relayed.clear();
    }
    if (!everStarted.has(supervised.role)) {
      console.error(`A Crucible ${supervised.role} process exited before it started (code ${code ?? signal}); stopping.`);
      void stop(1);
      return;
    }
    log('process died, starting another', { role: supervised.role, pid: worker.process.pid, code, signal });
    fork(supervised.role);
  });

  async function stop(exitCode: number): Promise<void> {
    if (stopping) return;
    stopping = true;
    const exited = [...processes.keys()].map(
      (worker) => new Promise((resolve) => (worker.process.exitCode !== null ? resolve(null) : worker.once('exit', resolve))),
    );
    for (const worker of processes.keys()) worker.process.kill('SIGTERM');
    await Promise.all(exited);
    await devnets?.stop();
    process.exit(exitCode);
  }
  // `on`, not `once`: src/chain/anvil.ts re-raises the signal when it finds no other listener left.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => (stopping ? process.exit(1) : void stop(0)));

  for (let index = 0; index < config.processes; index++) fork('server');
  fork('workers');
  const url = await listening.promise;
  log('supervising', { url, servers: config.processes, workers: 1 });
  return { url };
}
