import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEther, type Address } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { envSuffixOf } from '../../../src/config/faucet.ts';
import { startFaucetRuntime, type FaucetRuntime, type FaucetRuntimeOptions } from '../../../src/runtime/faucet.ts';
import { FAUCET_KEY, startRpcProxy, startTestAnvil, type RpcInterceptor, type TestAnvil } from '../../support/anvil.ts';
import { startSiteverify, type TestSiteverify } from '../../support/siteverify.ts';

// The faucet as the server runs it (startFaucetRuntime from environment variables), over real
// anvil chains, a real SQLite file, a local "mainnet" anvil and the local siteverify server.

const SITEVERIFY_SECRET = 'harness-turnstile-secret';
/** Where and for which widget action the harness's tokens are solved. */
export const HARNESS_TURNSTILE_HOSTNAME = 'localhost';
export const HARNESS_TURNSTILE_ACTION = 'faucet-send';
export const FAUCET_ADDRESS: Address = privateKeyToAddress(FAUCET_KEY);

export interface HarnessOptions {
  /** Networks served by a test anvil (through a pass-through proxy), by faucet id -> chain ID. */
  chains: Record<string, number>;
  /** Run the anti-sybil check against a local mainnet anvil. */
  mainnet?: boolean;
  /** Extra or overriding variables. */
  env?: Record<string, string>;
  /** Reuse a database file (restart tests). */
  databasePath?: string;
  /** Reuse the chains, mainnet and siteverify of an earlier harness (restarts, other settings). */
  reuse?: HarnessParts;
  blockTimeSeconds?: number;
  /** Runtime settings besides the environment (reconcile timing, the sender's mempool watch). */
  runtime?: Omit<FaucetRuntimeOptions, 'env' | 'networks'>;
}

export type Harness = Awaited<ReturnType<typeof startHarness>>;

/** What a harness starts besides the faucet runtime. */
interface HarnessParts {
  siteverify: TestSiteverify;
  mainnet: TestAnvil | null;
  chains: Record<string, TestAnvil>;
}

export async function startHarness(options: HarnessOptions) {
  const dir = mkdtempSync(join(tmpdir(), 'crucible-faucet-'));
  const siteverify: TestSiteverify = options.reuse?.siteverify ?? (await startSiteverify({ secret: SITEVERIFY_SECRET }));
  const mainnet: TestAnvil | null = options.reuse?.mainnet ?? (options.mainnet ? await startTestAnvil({ chainId: 1 }) : null);
  const chains: Record<string, TestAnvil> = options.reuse?.chains ?? {};
  const interceptors: Record<string, RpcInterceptor | undefined> = {};
  const proxies: Array<{ close(): Promise<void> }> = [];
  const env: Record<string, string> = {
    DATABASE_PATH: options.databasePath ?? join(dir, 'faucet.sqlite'),
    TURNSTILE_SECRET_KEY: SITEVERIFY_SECRET,
    TURNSTILE_SITEVERIFY_URL: siteverify.url,
    ...(mainnet ? { MAINNET_RPC_URL: mainnet.rpcUrl } : {}),
  };
  for (const [faucetId, chainId] of Object.entries(options.chains)) {
    chains[faucetId] ??= await startTestAnvil({ chainId, blockTimeSeconds: options.blockTimeSeconds ?? 2 });
    const proxy = await startRpcProxy(chains[faucetId].rpcUrl, (call) => interceptors[faucetId]?.(call) ?? Promise.resolve(undefined));
    proxies.push(proxy);
    env[`RPC_URL_${envSuffixOf(faucetId)}`] = proxy.url;
  }
  const runtime: FaucetRuntime = await startFaucetRuntime({ ...options.runtime, env: { ...env, ...options.env } });
  const closeRuntime = async () => {
    await runtime.close();
    await Promise.all(proxies.map((p) => p.close()));
  };

  return {
    runtime,
    faucet: runtime.faucet,
    store: runtime.store,
    siteverify,
    mainnet,
    chains,
    databasePath: env.DATABASE_PATH!,
    /** Acts on one network's calls at the proxy (undefined: pass everything through). */
    intercept(faucetId: string, interceptor: RpcInterceptor | undefined) {
      interceptors[faucetId] = interceptor;
    },
    /** A send with a freshly solved CAPTCHA. */
    send(faucetId: string, address: string, ip: string | null = '198.51.100.1') {
      return runtime.faucet.send({
        faucetId,
        address,
        turnstileToken: siteverify.issueToken({ hostname: HARNESS_TURNSTILE_HOSTNAME, action: HARNESS_TURNSTILE_ACTION }),
        ip,
      });
    },
    /** Gives the address the mainnet history the anti-sybil check wants. */
    async season(address: Address, balance = parseEther('0.01'), txCount = 1) {
      if (!mainnet) throw new Error('no mainnet in this harness');
      await mainnet.setBalance(address, balance);
      await mainnet.client.setNonce({ address, nonce: txCount });
    },
    /** Closes the runtime only (chains, siteverify and mainnet stay for a restarted runtime). */
    closeRuntime,
    async stop() {
      await closeRuntime();
      if (!options.reuse) {
        await Promise.all(Object.values(chains).map((c) => c.stop()));
        await mainnet?.stop();
        await siteverify.close();
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
