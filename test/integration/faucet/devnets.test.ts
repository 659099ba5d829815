import { execFileSync, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPublicClient, http, parseEther } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEV_FAUCET_PRIVATE_KEY } from '../../../src/chain/dev-accounts.ts';
import { createFaucetChains, type FaucetChains } from '../../../src/chain/faucet-chains.ts';
import { createLocalDevnets, type LocalDevnets } from '../../../src/chain/local-devnets.ts';
import { loadFaucetNetworks, type FaucetNetwork } from '../../../src/chain/networks.ts';
import { readFaucetConfig } from '../../../src/config/faucet.ts';

/** Anvil processes that are children of this test process. */
function anvilChildren(): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(process.pid), 'anvil'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

/** Running (a zombie left for a container's PID 1 to reap counts as gone). */
const isAlive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

/** Starts a process owning an anvil; resolves with both once the anvil listens. */
function startAnvilOwner() {
  const owner = fork(join(import.meta.dirname, 'worker', 'anvil-owner.ts'), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise<{ owner: typeof owner; anvilPid: number }>((resolve, reject) => {
    owner.once('exit', (code) => reject(new Error(`anvil owner exited with ${code}`)));
    owner.once('message', (message: { anvilPid: number }) => resolve({ owner, anvilPid: message.anvilPid }));
  });
}

/** Resolves once the process is gone; the test timeout bounds the wait. */
async function gone(pid: number): Promise<void> {
  while (isAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
}

let networks: FaucetNetwork[];
const byId = (id: string) => networks.find((n) => n.id === id)!;
let devnets: LocalDevnets | undefined;
let chains: FaucetChains | undefined;
beforeAll(async () => {
  networks = await loadFaucetNetworks();
});
afterEach(async () => {
  await devnets?.stop();
  await chains?.close();
  devnets = chains = undefined;
});

describe('local devnets', () => {
  it('starts one anvil per network even under concurrent first requests, with the network chain ID', async () => {
    devnets = createLocalDevnets({ blockTimeSeconds: 2 });
    const faucet = privateKeyToAddress(DEV_FAUCET_PRIVATE_KEY);
    const crucible = { id: 'crucible-testnet', chainId: 7357001 };
    const urls = await Promise.all(Array.from({ length: 10 }, () => devnets!.rpcUrlFor(crucible, faucet)));
    expect(new Set(urls).size).toBe(1);
    expect(anvilChildren()).toHaveLength(1);

    const client = createPublicClient({ transport: http(urls[0]) });
    expect(await client.getChainId()).toBe(7357001);
    expect(await client.getBalance({ address: faucet })).toBeGreaterThanOrEqual(parseEther('10000'));

    await devnets.rpcUrlFor({ id: 'ink-sepolia', chainId: 763373 }, faucet);
    expect(anvilChildren()).toHaveLength(2);
  });

  it('mines on an interval, with no transaction to trigger a block', async () => {
    devnets = createLocalDevnets({ blockTimeSeconds: 1 });
    const client = createPublicClient({ transport: http(await devnets.rpcUrlFor({ id: 'x', chainId: 31337 }, privateKeyToAddress(DEV_FAUCET_PRIVATE_KEY))) });
    const first = await client.getBlockNumber({ cacheTime: 0 });
    // No transaction is sent: only interval mining can move the chain forward.
    await new Promise<void>((resolve) => {
      const unwatch = client.watchBlockNumber({
        pollingInterval: 200,
        onBlockNumber: (n) => {
          if (n <= first) return;
          unwatch();
          resolve();
        },
      });
    });
  });

  it('funds a configured faucet key that is not an anvil dev account', async () => {
    devnets = createLocalDevnets({ blockTimeSeconds: 2 });
    const own = privateKeyToAddress(`0x${'cd'.repeat(32)}`);
    const client = createPublicClient({ transport: http(await devnets.rpcUrlFor({ id: 'y', chainId: 31337 }, own)) });
    expect(await client.getBalance({ address: own })).toBe(parseEther('10000'));
  });

  it('stops every anvil it started', async () => {
    devnets = createLocalDevnets({ blockTimeSeconds: 2 });
    const faucet = privateKeyToAddress(DEV_FAUCET_PRIVATE_KEY);
    await Promise.all([devnets.rpcUrlFor({ id: 'a', chainId: 1001 }, faucet), devnets.rpcUrlFor({ id: 'b', chainId: 1002 }, faucet)]);
    const pids = anvilChildren();
    expect(pids).toHaveLength(2);
    await devnets.stop();
    expect(pids.filter(isAlive)).toEqual([]);
    await expect(devnets.rpcUrlFor({ id: 'a', chainId: 1001 }, faucet)).rejects.toThrow(/stopped/);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('stops its anvil when the owning process gets %s', async (signal) => {
    const { owner, anvilPid } = await startAnvilOwner();
    expect(isAlive(anvilPid)).toBe(true);
    const exited = new Promise<NodeJS.Signals | null>((resolve) => owner.once('exit', (_code, sig) => resolve(sig)));
    owner.kill(signal);
    // The default meaning of the signal is kept: the owner terminates.
    expect(await exited).toBe(signal);
    await gone(anvilPid);
  });

  it('stops its anvil when the owning process exits', async () => {
    const { owner, anvilPid } = await startAnvilOwner();
    const exited = new Promise<number | null>((resolve) => owner.once('exit', (code) => resolve(code)));
    owner.send('exit');
    expect(await exited).toBe(0);
    await gone(anvilPid);
  });
});

describe('faucet chains', () => {
  it('gives deprecated and non-EVM networks no chain and starts nothing for them', async () => {
    chains = createFaucetChains({ config: readFaucetConfig({}, networks) });
    expect(await chains.get(byId('starknet-sepolia'))).toBeNull();
    expect(await chains.get(byId('syndicate-risa'))).toBeNull();
    expect(anvilChildren()).toEqual([]);
  });

  it('starts no devnet in production mode', async () => {
    const config = readFaucetConfig(
      {
        CRUCIBLE_MODE: 'production',
        TURNSTILE_SECRET_KEY: 's',
        TURNSTILE_SITE_KEY: 'k',
        TURNSTILE_EXPECTED_HOSTNAME: 'faucet.example.com',
        TURNSTILE_ACTION: 'faucet-send',
        IP_HASH_SALT: 'salt-salt-salt-salt',
        ANTI_SYBIL_MIN_BALANCE_ETH: '0',
        ANTI_SYBIL_MIN_TX_COUNT: '0',
      },
      networks,
    );
    chains = createFaucetChains({ config });
    expect(await chains.get(byId('base-sepolia'))).toBeNull();
    expect(anvilChildren()).toEqual([]);
  });

  it('connects a local devnet once, with no explorer link', async () => {
    chains = createFaucetChains({ config: readFaucetConfig({}, networks) });
    const sepolia = byId('ethereum-sepolia');
    const [a, b] = await Promise.all([chains.get(sepolia), chains.get(sepolia)]);
    expect(a).toBe(b);
    expect(a!.chainId).toBe(11155111);
    expect(a!.explorerUrl(`0x${'1'.repeat(64)}`)).toBeUndefined();
    expect(anvilChildren()).toHaveLength(1);
    await chains.close();
    expect(anvilChildren()).toEqual([]);
  });

  it('refuses an RPC endpoint that serves another chain', async () => {
    devnets = createLocalDevnets({ blockTimeSeconds: 2 });
    const wrongChain = await devnets.rpcUrlFor({ id: 'z', chainId: 31337 }, privateKeyToAddress(DEV_FAUCET_PRIVATE_KEY));
    chains = createFaucetChains({ config: readFaucetConfig({ RPC_URL_BASE_SEPOLIA: wrongChain }, networks) });
    await expect(chains.get(byId('base-sepolia'))).rejects.toThrow(/serves chain 31337, expected 84532/);
  });
});
