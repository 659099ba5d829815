import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomAddress } from '../../support/anvil.ts';
import { FAUCET_ADDRESS, startHarness, type Harness } from './harness.ts';

// Correctness under concurrency through the whole decision chain, on one network.

const NETWORK = 'ethereum-sepolia';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ chains: { [NETWORK]: 11155111 }, env: { PER_IP_MAX_DRIPS: '0' } });
});
afterAll(async () => {
  await h?.stop();
});

const nonceOf = async (hash: Hex) => (await h.chains[NETWORK]!.client.getTransaction({ hash })).nonce;
const pendingNonce = () => h.chains[NETWORK]!.client.getTransactionCount({ address: FAUCET_ADDRESS, blockTag: 'pending' });

describe('concurrent sends', () => {
  it('serves 50 concurrent requests for distinct addresses, with consecutive nonces and no 409', async () => {
    const start = await pendingNonce();
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => h.send(NETWORK, randomAddress(), `10.0.${i}.1`)));
    expect(results.filter((r) => !r.ok)).toEqual([]);
    const nonces = await Promise.all(results.map((r) => (r.ok ? nonceOf(r.body.transactionHash as Hex) : -1)));
    expect(nonces.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => start + i));
    expect(await h.store.listDrips({ networkId: NETWORK })).toHaveLength(50);
  });

  it('drips exactly once for 10 concurrent requests for one address', async () => {
    const address = randomAddress();
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => h.send(NETWORK, i % 2 ? address : address.toLowerCase(), `10.1.${i}.1`)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.statusCode)).toEqual(Array(9).fill('rate_limit_exceeded'));
    expect(await h.store.listDrips({ networkId: NETWORK, address })).toHaveLength(1);
  });
});
