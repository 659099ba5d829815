import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keccak256, parseEther, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NoHealthyUpstreamError, createUpstreamPool, type UpstreamPool } from '../../../src/node/upstreams/upstream-pool.ts';
import { randomAddress, startRpcProxy, startTestAnvil, THIRD_PARTY_KEY, type RpcInterceptor, type TestAnvil } from '../../support/anvil.ts';
import { refusingPort } from '../../support/free-port.ts';

// The upstream pool against a real anvil and real failures (docs/json-rpc.md#upstreams): a closed port, a node
// answering 502, and a pass-through proxy that drops the connection before or after forwarding.

let chain: TestAnvil;
let deadUrl: string;
let failing: Server;
let dead: Awaited<ReturnType<typeof refusingPort>>;
let failingUrl: string;
const pools: UpstreamPool[] = [];

const blockNumber = '{"jsonrpc":"2.0","id":7,"method":"eth_blockNumber","params":[]}';
const pool = (urls: string[]) => {
  const created = createUpstreamPool({ urls: async () => urls, timeoutMs: 2_000, probeIntervalMs: 60_000 });
  pools.push(created);
  return created;
};

beforeAll(async () => {
  chain = await startTestAnvil({ chainId: 31337 });
  dead = await refusingPort();
  deadUrl = `http://127.0.0.1:${dead.port}`;
  failing = createServer((_, response) => response.writeHead(502).end('bad gateway'));
  await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
  failingUrl = `http://127.0.0.1:${(failing.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const created of pools) created.close();
  await new Promise((resolve) => failing.close(resolve));
  await dead?.release();
  await chain.stop();
});

describe('reads fail over', () => {
  it.each([
    ['a closed port', () => deadUrl],
    ['a node answering 502', () => failingUrl],
  ])('an idempotent read that meets %s is answered by the other upstream, whichever is tried first', async (_, broken) => {
    const both = pool([broken(), chain.rpcUrl]);
    for (let i = 0; i < 4; i++) {
      const answer = JSON.parse(await both.send(blockNumber, { kind: 'idempotent' })) as { id: number; result: string };
      expect(answer.id).toBe(7);
      expect(answer.result).toMatch(/^0x/);
    }
  });

  it('a call that may not be repeated is not sent to a second upstream', async () => {
    const both = pool([deadUrl, chain.rpcUrl]);
    const outcomes = await Promise.allSettled([both.send(blockNumber, { kind: 'none' }), both.send(blockNumber, { kind: 'none' })]);
    // Round robin: one of the two went to the closed port first, and was not retried.
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toHaveLength(1);
    expect((outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(NoHealthyUpstreamError);
  });

  it('an upstream that keeps failing is left out until it recovers', async () => {
    const both = pool([deadUrl, chain.rpcUrl]);
    await Promise.allSettled(Array.from({ length: 6 }, () => both.send(blockNumber, { kind: 'none' })));
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => both.send(blockNumber, { kind: 'none' })));
    expect(results.every((result) => result.status === 'fulfilled')).toBe(true);
    const health = await both.health();
    expect(health[0]!.consecutiveFailures).toBeGreaterThanOrEqual(3);
    expect(health[1]!.head).not.toBeNull();
  });

  it('with no upstream answering, the pool says so', async () => {
    await expect(pool([deadUrl, failingUrl]).send(blockNumber, { kind: 'idempotent' })).rejects.toBeInstanceOf(NoHealthyUpstreamError);
    expect(await pool([deadUrl]).head()).toBeNull();
  });
});

describe('eth_sendRawTransaction is never re-broadcast blindly', () => {
  const signer = privateKeyToAccount(THIRD_PARTY_KEY);
  const signedTransfer = async (): Promise<Hex> =>
    signer.signTransaction({
      chainId: 31337,
      nonce: await chain.client.getTransactionCount({ address: signer.address, blockTag: 'pending' }),
      to: randomAddress(),
      value: parseEther('0.01'),
      gas: 21_000n,
      maxFeePerGas: parseEther('0.000001'),
      maxPriorityFeePerGas: 1n,
      type: 'eip1559',
    });
  const send = (raw: Hex) => JSON.stringify({ jsonrpc: '2.0', id: 'tx', method: 'eth_sendRawTransaction', params: [raw] });

  const throughProxy = async (action: Awaited<ReturnType<RpcInterceptor>>) => {
    const seen: string[] = [];
    const proxy = await startRpcProxy(chain.rpcUrl, async (call) => {
      seen.push(call.method);
      return call.method === 'eth_sendRawTransaction' ? action : undefined;
    });
    return { proxy, seen };
  };

  it('a broadcast whose answer was lost is found on the second upstream and not sent again', async () => {
    const { proxy, seen } = await throughProxy('forward-then-drop');
    const seenDirect: string[] = [];
    const direct = await startRpcProxy(chain.rpcUrl, async (call) => {
      seenDirect.push(call.method);
      return undefined;
    });
    try {
      const raw = await signedTransfer();
      const answer = JSON.parse(await pool([proxy.url, direct.url]).send(send(raw), { kind: 'transaction', hash: keccak256(raw) })) as {
        id: string;
        result: string;
      };
      expect(answer).toEqual({ jsonrpc: '2.0', id: 'tx', result: keccak256(raw) });
      expect(seen.filter((method) => method === 'eth_sendRawTransaction')).toHaveLength(1);
      expect(seenDirect).toEqual(expect.arrayContaining(['eth_getTransactionByHash']));
      expect(seenDirect).not.toContain('eth_sendRawTransaction');
    } finally {
      await Promise.all([proxy.close(), direct.close()]);
    }
  });

  it('a broadcast that never left is sent by the second upstream once it says it does not know it', async () => {
    const { proxy } = await throughProxy('drop');
    try {
      const raw = await signedTransfer();
      const answer = JSON.parse(await pool([proxy.url, chain.rpcUrl]).send(send(raw), { kind: 'transaction', hash: keccak256(raw) })) as { result: string };
      expect(answer.result).toBe(keccak256(raw));
      const receipt = await chain.client.waitForTransactionReceipt({ hash: keccak256(raw), pollingInterval: 100 });
      expect(receipt.status).toBe('success');
    } finally {
      await proxy.close();
    }
  });
});
