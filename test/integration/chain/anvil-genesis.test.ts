import { afterAll, describe, expect, it } from 'vitest';
import { startTestAnvil, type TestAnvil } from '../../support/anvil.ts';

// A chain's identity is its genesis hash: the indexer and the NFT contract facts tell a reset
// devnet from the chain they knew by it. Anvil takes its genesis timestamp from the clock, in whole
// seconds, and the hash holds no chain id, so new chains started in one second would be one chain
// by hash. Every new chain this process starts gets a genesis of its own (src/chain/anvil.ts).

const CHAIN_ID = 7357001;
const started: TestAnvil[] = [];

afterAll(async () => {
  await Promise.all(started.map((anvil) => anvil.stop()));
});

describe('anvil chains started by one process', () => {
  it('each have a genesis hash of their own, even started at once with one chain id', async () => {
    started.push(...(await Promise.all([0, 1, 2].map(() => startTestAnvil({ chainId: CHAIN_ID })))));
    const genesis = await Promise.all(started.map(async (anvil) => (await anvil.client.getBlock({ blockNumber: 0n })).hash));
    expect(new Set(genesis).size).toBe(started.length);
  });
});
