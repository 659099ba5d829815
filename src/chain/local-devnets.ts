import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestClient, http, parseEther, type Address } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { startAnvil, type AnvilProcess } from './anvil.ts';
import { DEV_FAUCET_PRIVATE_KEY } from './dev-accounts.ts';
import { deployWorld } from './world/deploy.ts';
import { FEED_CHECK_SECONDS, refreshStaleFeeds } from './world/feed-heartbeat.ts';

// The embedded default: a network without an RPC URL gets its own anvil with that network's chain
// ID, started on first use and stopped with us. Every devnet carries the
// local world (src/chain/world/), and with a state directory it keeps its chain across restarts.
// While it runs, the world's price feeds keep a heartbeat (src/chain/world/feed-heartbeat.ts).

export interface LocalDevnets {
  /**
   * RPC URL of the network's devnet, starting it on first call; concurrent first calls share one
   * start. `fund`: an address that must hold funds there (a configured faucet key), funded once.
   */
  rpcUrlFor(network: DevnetNetwork, fund?: Address): Promise<string>;
  /**
   * Calls `listener` with each devnet once it has started (its world installed), those already
   * running at once: how the transfer index follows a devnet from its first use. Returns its removal.
   */
  onStart(listener: (network: DevnetNetwork) => void): () => void;
  stop(): Promise<void>;
}

interface DevnetNetwork {
  id: string;
  chainId: number;
}

export interface LocalDevnetsOptions {
  /** Seconds between blocks (interval mining). */
  blockTimeSeconds: number;
  /**
   * Directory of the devnets' chains: each network's anvil loads `<stateDir>/<network id>.json` at
   * start and writes it back every STATE_INTERVAL_SECONDS and at exit; its past states go to
   * `<network id>.states/` while it runs. null or absent: every start is a new chain.
   */
  stateDir?: string | null;
  /** Origin of the site that serves the world's NFT metadata (/world/nft/); default DEFAULT_SITE_ORIGIN. */
  siteOrigin?: string;
  /** Seconds between two looks for stale world feeds on a running devnet; default FEED_CHECK_SECONDS. */
  feedCheckSeconds?: number;
  /** Where a failed heartbeat is told (the devnet keeps running); default one JSON line on stderr. */
  log?: (entry: { level: 'error'; network: string; message: string }) => void;
}

/** `npm start`'s origin when nothing else is configured. */
const DEFAULT_SITE_ORIGIN = 'http://localhost:4321';

/** How often anvil writes its state file: what a crash (no exit hook) can lose. */
const STATE_INTERVAL_SECONDS = 10;

const DEV_FAUCET_ADDRESS = privateKeyToAddress(DEV_FAUCET_PRIVATE_KEY);
const FAUCET_BALANCE = parseEther('10000');

/** A network id names its state file, so it must be a plain file name. */
const FILE_SAFE_ID = /^[a-z0-9][a-z0-9._-]*$/i;

export function createLocalDevnets(options: LocalDevnetsOptions): LocalDevnets {
  const { stateDir = null, siteOrigin = DEFAULT_SITE_ORIGIN, feedCheckSeconds = FEED_CHECK_SECONDS } = options;
  const log = options.log ?? ((entry) => console.error(JSON.stringify({ component: 'devnets', ...entry })));
  // A promise per network, stored before anvil starts: that is what makes the start happen once.
  const devnets = new Map<string, Promise<AnvilProcess>>();
  let stopped = false;
  const started = new Map<string, DevnetNetwork>();
  const startListeners = new Set<(network: DevnetNetwork) => void>();

  // Addresses funded per network, as promises stored before the call: each is funded once.
  const funded = new Map<string, Map<string, Promise<void>>>();

  // Anvil funds its dev accounts at genesis; a configured key of our own gets the same.
  const fundOnce = (networkId: string, rpcUrl: string, address: Address): Promise<void> => {
    const key = address.toLowerCase();
    if (key === DEV_FAUCET_ADDRESS.toLowerCase()) return Promise.resolve();
    const known = funded.get(networkId) ?? funded.set(networkId, new Map()).get(networkId)!;
    let funding = known.get(key);
    if (!funding) {
      funding = createTestClient({ mode: 'anvil', transport: http(rpcUrl) }).setBalance({ address, value: FAUCET_BALANCE });
      known.set(key, funding);
      funding.catch(() => known.delete(key));
    }
    return funding;
  };

  const start = async (network: DevnetNetwork): Promise<AnvilProcess> => {
    let stateArgs: string[] = [];
    let pastStates: string;
    if (stateDir !== null) {
      if (!FILE_SAFE_ID.test(network.id)) throw new Error(`network id ${JSON.stringify(network.id)} cannot name a state file`);
      await mkdir(stateDir, { recursive: true });
      stateArgs = ['--state', join(stateDir, `${network.id}.json`), '--state-interval', String(STATE_INTERVAL_SECONDS)];
      pastStates = join(stateDir, `${network.id}.states`);
      // What a devnet killed without our stop() left there.
      await rm(pastStates, { recursive: true, force: true });
    } else {
      pastStates = await mkdtemp(join(tmpdir(), 'crucible-devnet-states-'));
    }
    const removePastStates = () => rm(pastStates, { recursive: true, force: true });
    // Past states beside the state file, so a start clears what a killed devnet left (how many: startAnvil).
    const flags = [...stateArgs, '--cache-path', pastStates];
    const started = await startAnvil({ chainId: network.chainId, blockTimeSeconds: options.blockTimeSeconds, extraArgs: flags }).catch(
      async (error: unknown) => {
        await removePastStates();
        throw error;
      },
    );
    const heartbeat = feedHeartbeat(network.id, started.rpcUrl);
    const anvil: AnvilProcess = {
      ...started,
      async stop() {
        await heartbeat.stop();
        await started.stop();
        await removePastStates();
      },
    };
    try {
      // Deployed at the first start; at every later one only the base URIs follow the site's origin.
      await deployWorld(anvil.rpcUrl, { siteOrigin });
    } catch (error) {
      await anvil.stop();
      const where = stateArgs.length ? ` (state file ${stateArgs[1]})` : '';
      throw new Error(`the local world could not be installed on the ${network.id} devnet${where}: ${(error as Error).message}`, { cause: error });
    }
    heartbeat.start();
    return anvil;
  };

  // Looks for stale feeds every feedCheckSeconds, one look at a time; stop() waits for the one under way.
  const feedHeartbeat = (networkId: string, rpcUrl: string) => {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> | null = null;
    const look = () => {
      running ??= refreshStaleFeeds(rpcUrl)
        .then(
          () => undefined,
          (error: unknown) => log({ level: 'error', network: networkId, message: `the world's feed heartbeat failed: ${(error as Error).message}` }),
        )
        .finally(() => (running = null));
    };
    return {
      start() {
        timer = setInterval(look, feedCheckSeconds * 1000);
        timer.unref();
      },
      async stop() {
        clearInterval(timer);
        await running;
      },
    };
  };

  const devnetFor = (network: DevnetNetwork): Promise<AnvilProcess> => {
    if (stopped) return Promise.reject(new Error('local devnets are stopped'));
    let devnet = devnets.get(network.id);
    if (!devnet) {
      devnet = start(network);
      devnets.set(network.id, devnet);
      // A failed start is not memoized: the next request tries again.
      devnet.then(
        () => {
          if (stopped) return;
          started.set(network.id, network);
          for (const listener of startListeners) listener(network);
        },
        () => devnets.delete(network.id),
      );
    }
    return devnet;
  };

  return {
    async rpcUrlFor(network, fund) {
      const { rpcUrl } = await devnetFor(network);
      if (fund) await fundOnce(network.id, rpcUrl, fund);
      return rpcUrl;
    },
    onStart(listener) {
      startListeners.add(listener);
      for (const network of started.values()) listener(network);
      return () => startListeners.delete(listener);
    },
    async stop() {
      stopped = true;
      startListeners.clear();
      const all = [...devnets.values()];
      devnets.clear();
      await Promise.all(
        all.map((devnet) =>
          devnet.then(
            (anvil) => anvil.stop(),
            () => undefined,
          ),
        ),
      );
    },
  };
}
