import { createServer } from 'node:http';
import { text } from 'node:stream/consumers';
import type { AddressInfo } from 'node:net';
import { createTestClient, getAddress, http, parseEther, parseTransaction, publicActions, walletActions, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startAnvil, type AnvilOptions } from '../../src/chain/anvil.ts';
import { DEV_FAUCET_PRIVATE_KEY } from '../../src/chain/dev-accounts.ts';

// Real anvil for tests, plus a JSON-RPC pass-through proxy for the few tests that need a
// competitor or a fault at the exact moment of the faucet's broadcast. The proxy never
// answers for the node: it forwards to the real anvil, acts on the real anvil first
// (a competing transaction, a drained balance), or drops the connection.

/** Anvil dev account 1 (DEV_MNEMONIC): funded at genesis, used by tests as a third party. */
export const THIRD_PARTY_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
export const FAUCET_KEY = DEV_FAUCET_PRIVATE_KEY;

export type TestAnvil = Awaited<ReturnType<typeof startTestAnvil>>;

export async function startTestAnvil(options: AnvilOptions) {
  const anvil = await startAnvil(options);
  const client = createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl) })
    .extend(publicActions)
    .extend(walletActions);
  return {
    ...anvil,
    client,
    setBalance: (address: Address, value: bigint) => client.setBalance({ address, value }),
  };
}

/** Passes of holdBlockGasLimit before it gives up: one is enough unless blocks keep being mined across the set. */
const GAS_LIMIT_PASSES = 20;

/**
 * Sets anvil's block gas limit so that it holds. anvil copies its block settings when it starts
 * mining a block and writes the copy back when the block is done, so a limit set while a block is
 * being mined (interval mining, automine) is undone a moment later. Each pass sets the limit, mines
 * a block, which waits for any block under way and so writes back after it, and reads the limit
 * back: once it reads as set, no block that began before the set is left to undo it.
 */
export async function holdBlockGasLimit(client: TestAnvil['client'], gasLimit: bigint): Promise<void> {
  for (let pass = 0; pass < GAS_LIMIT_PASSES; pass++) {
    await client.setBlockGasLimit({ gasLimit });
    await client.mine({ blocks: 1 });
    if ((await client.getBlock({ blockTag: 'pending' })).gasLimit === gasLimit) return;
  }
  throw new Error(`anvil's block gas limit did not hold at ${gasLimit} after ${GAS_LIMIT_PASSES} passes`);
}

/**
 * Stops interval mining and waits out a block under way: a block mined here queues behind it, so once
 * this returns no block is being mined (whose end would rewrite the next base fee or gas limit) until
 * mining resumes.
 */
export async function pauseIntervalMining(client: TestAnvil['client']): Promise<void> {
  await client.setIntervalMining({ interval: 0 });
  await client.mine({ blocks: 1 });
}

/** A fresh random address (no balance, no history): 20 random bytes, no key behind them. */
export function randomAddress(): Address {
  return getAddress(`0x${Buffer.from(crypto.getRandomValues(new Uint8Array(20))).toString('hex')}`);
}

interface RpcCall {
  id?: unknown;
  method: string;
  params: unknown[];
}

/**
 * What to do with one call: `undefined` forwards it unchanged; 'drop' destroys the connection
 * without forwarding; 'forward-then-drop' forwards it and loses the node's answer; `{ refuse }`
 * answers it with that JSON-RPC error in the node's stead (a node without the method). An
 * interceptor may first act on the real node with its own client.
 */
export type RpcInterceptor = (call: RpcCall) => Promise<undefined | 'drop' | 'forward-then-drop' | { refuse: { code: number; message: string } }>;

export async function startRpcProxy(targetUrl: string, intercept: RpcInterceptor) {
  const server = createServer(async (request, response) => {
    const body = await text(request);
    const parsed = JSON.parse(body) as RpcCall | RpcCall[];
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    // A JSON-RPC batch is one request: the strongest action any of its calls asks for applies to it.
    let action: 'drop' | 'forward-then-drop' | undefined;
    const refusals = new Map<RpcCall, { code: number; message: string }>();
    try {
      for (const call of calls) {
        const asked = await intercept(call);
        if (typeof asked === 'object') refusals.set(call, asked.refuse);
        else if (asked === 'drop' || (asked === 'forward-then-drop' && action === undefined)) action = asked;
      }
    } catch (error) {
      // An interceptor that failed is the test's fault: its client hears at once, and the error is reported.
      request.socket.destroy();
      throw error;
    }
    if (action === 'drop') {
      request.socket.destroy();
      return;
    }
    const forwarded = calls.filter((call) => !refusals.has(call));
    const upstream =
      forwarded.length === 0
        ? null
        : await fetch(targetUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: refusals.size === 0 ? body : JSON.stringify(Array.isArray(parsed) ? forwarded : forwarded[0]),
          });
    if (action === 'forward-then-drop') {
      request.socket.destroy();
      return;
    }
    if (refusals.size === 0) {
      response.writeHead(upstream!.status, { 'content-type': 'application/json' });
      response.end(await upstream!.text());
      return;
    }
    // The node's answers by id, and the refusals in their place.
    const answered = upstream ? ((await upstream.json()) as Array<{ id?: unknown }> | { id?: unknown }) : [];
    const byId = new Map((Array.isArray(answered) ? answered : [answered]).map((answer) => [answer.id, answer]));
    const answers = calls.map((call) => {
      const refusal = refusals.get(call);
      return refusal ? { jsonrpc: '2.0', id: call.id ?? null, error: refusal } : byId.get(call.id);
    });
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * An interceptor that front-runs every faucet broadcast: before the faucet's transaction
 * reaches the node, the same key spends that nonce with a higher fee (a real competing
 * transaction), so the faucet meets a nonce conflict on the real node.
 */
export function frontRunEveryBroadcast(client: TestAnvil['client'], competitorKey: Hex): RpcInterceptor {
  const competitor = privateKeyToAccount(competitorKey);
  return async (call) => {
    if (call.method !== 'eth_sendRawTransaction') return undefined;
    const faucetTx = parseTransaction(call.params[0] as Hex);
    await client.sendTransaction({
      account: competitor,
      chain: null,
      to: competitor.address,
      nonce: faucetTx.nonce!,
      gas: 21_000n,
      // Both raised by the same gwei, so the tip never exceeds the fee cap whatever the base fee has decayed to
      // (a faucet fee of 2 × base fee + tip, with the base fee below 1/6 gwei after enough empty blocks, did).
      maxFeePerGas: faucetTx.maxFeePerGas! * 3n + parseEther('1', 'gwei'),
      maxPriorityFeePerGas: faucetTx.maxPriorityFeePerGas! * 3n + parseEther('1', 'gwei'),
    });
    return undefined;
  };
}
