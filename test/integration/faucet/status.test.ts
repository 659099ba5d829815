import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_TURNSTILE_TOKEN } from '../../../src/faucet/captcha.ts';
import { startFaucetRuntime, type FaucetRuntime } from '../../../src/runtime/faucet.ts';
import type { FaucetStatusResult } from '../../../src/faucet/results.ts';
import { randomAddress, startTestAnvil, THIRD_PARTY_KEY, type TestAnvil } from '../../support/anvil.ts';
import { startHarness, type Harness } from './harness.ts';

// Status (docs/website.md#faucet-status): pending while the node has no receipt, then success or failed with
// `mined: true`; a status check that cannot be made answers status_check_failed (500).

const BASE = 'base-sepolia';
const SYNDICATE = 'syndicate-risa';
const CLIENT_IP = '198.51.100.7';
/** Init code returning the runtime `PUSH0 PUSH0 REVERT` (0x5f5ffd): every call to it reverts. */
const REVERTER_INIT_CODE: Hex = '0x60038060093d393df35f5ffd';
const thirdParty = privateKeyToAccount(THIRD_PARTY_KEY);

let h: Harness;
let syndicate: TestAnvil;
beforeAll(async () => {
  h = await startHarness({ chains: { [BASE]: 84532 } });
  // A deprecated network whose RPC is still configured keeps answering for old hashes.
  syndicate = await startTestAnvil({ chainId: 51014 });
});
afterAll(async () => {
  await h?.stop();
  await syndicate?.stop();
});

/** Polls the faucet's status until it is no longer pending; returns every answer seen. */
async function pollUntilMined(runtime: { faucet: FaucetRuntime['faucet'] }, faucetId: string, transactionHash: string) {
  const seen: FaucetStatusResult[] = [];
  for (;;) {
    const result = await runtime.faucet.status({ faucetId, transactionHash, ip: CLIENT_IP });
    seen.push(result);
    if (!result.ok || result.body.status !== 'pending') return seen;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('status', () => {
  it('goes from pending to success on a chain with a 2 s block time', async () => {
    const chain = h.chains[BASE]!;
    // Hold interval mining so the first answer is pending for certain, then let 2 s blocks resume.
    await chain.client.setIntervalMining({ interval: 0 });
    const sent = await h.send(BASE, randomAddress());
    if (!sent.ok) throw new Error(`send failed: ${sent.statusCode}`);
    const hash = sent.body.transactionHash;
    expect(await h.faucet.status({ faucetId: BASE, transactionHash: hash, ip: CLIENT_IP })).toEqual({
      ok: true,
      body: { status: 'pending', success: true, transactionHash: hash, chainId: 84532, chainName: 'Base Sepolia' },
    });
    await chain.client.setIntervalMining({ interval: 2 });
    const seen = await pollUntilMined(h, BASE, hash);
    expect(seen.at(-1)).toEqual({
      ok: true,
      body: {
        status: 'success',
        mined: true,
        transactionHash: hash,
        chainId: 84532,
        chainName: 'Base Sepolia',
        explorerUrl: `https://sepolia.basescan.org/tx/${hash}`,
      },
    });
  });

  it('answers failed for a mined transaction that reverted', async () => {
    const chain = h.chains[BASE]!;
    const deploy = await chain.client.sendTransaction({ account: thirdParty, chain: null, data: REVERTER_INIT_CODE });
    const { contractAddress } = await chain.client.waitForTransactionReceipt({ hash: deploy, pollingInterval: 200 });
    const hash = await chain.client.sendTransaction({ account: thirdParty, chain: null, to: contractAddress!, gas: 50_000n });
    const seen = await pollUntilMined(h, BASE, hash);
    expect(seen.at(-1)).toMatchObject({ ok: true, body: { status: 'failed', mined: true, transactionHash: hash, chainId: 84532 } });
  });

  it('answers pending for a hash the node has never seen', async () => {
    const hash: Hex = `0x${'ab'.repeat(32)}`;
    expect(await h.faucet.status({ faucetId: BASE, transactionHash: hash, ip: CLIENT_IP })).toMatchObject({
      ok: true,
      body: { status: 'pending', success: true },
    });
  });

  it('answers status_check_failed (500) when the node cannot be asked', async () => {
    h.intercept(BASE, async (call) => (call.method === 'eth_getTransactionReceipt' ? 'drop' : undefined));
    try {
      const result = await h.faucet.status({ faucetId: BASE, transactionHash: `0x${'cd'.repeat(32)}`, ip: CLIENT_IP });
      expect(result).toMatchObject({ ok: false, statusCode: 'status_check_failed' });
    } finally {
      h.intercept(BASE, undefined);
    }
    const unreachable = await startFaucetRuntime({ env: { DATABASE_PATH: `${h.databasePath}.unreachable`, RPC_URL_INK_SEPOLIA: 'http://127.0.0.1:9' } });
    try {
      expect(await unreachable.faucet.status({ faucetId: 'ink-sepolia', transactionHash: `0x${'cd'.repeat(32)}`, ip: CLIENT_IP })).toMatchObject({
        ok: false,
        statusCode: 'status_check_failed',
      });
    } finally {
      await unreachable.close();
    }
  });

  it('answers 400 for an unknown faucet or a malformed hash', async () => {
    expect(await h.faucet.status({ faucetId: 'nope', transactionHash: `0x${'ab'.repeat(32)}`, ip: CLIENT_IP })).toMatchObject({
      ok: false,
      statusCode: 'unsupported_faucet',
      supportedChains: expect.arrayContaining([BASE]),
    });
    expect(await h.faucet.status({ faucetId: BASE, transactionHash: '0xabc', ip: CLIENT_IP })).toMatchObject({
      ok: false,
      statusCode: 'invalid_transaction_hash',
    });
  });
});

describe('status of deprecated networks', () => {
  it('still answers for old hashes where the network has an RPC URL', async () => {
    const runtime = await startFaucetRuntime({ env: { DATABASE_PATH: `${h.databasePath}.syndicate`, RPC_URL_SYNDICATE_RISA: syndicate.rpcUrl } });
    try {
      const old = await syndicate.client.sendTransaction({ account: thirdParty, chain: null, to: randomAddress(), value: 1n });
      // An old hash is a mined one: anvil's automine may answer the send before its block exists.
      await syndicate.client.waitForTransactionReceipt({ hash: old });
      expect(await runtime.faucet.status({ faucetId: SYNDICATE, transactionHash: old, ip: CLIENT_IP })).toMatchObject({
        ok: true,
        body: {
          status: 'success',
          mined: true,
          chainId: 51014,
          chainName: 'Syndicate Risa Testnet',
          explorerUrl: `https://risa-testnet.explorer.alchemy.com/tx/${old}`,
        },
      });
      // Sending stays refused.
      expect(await runtime.faucet.send({ faucetId: SYNDICATE, address: randomAddress(), turnstileToken: DEV_TURNSTILE_TOKEN, ip: null })).toMatchObject({
        ok: false,
        statusCode: 'insufficient_faucet_balance',
      });
    } finally {
      await runtime.close();
    }
  });

  it.each([SYNDICATE, 'starknet-sepolia'])('%s without an RPC URL answers status_check_failed (500) saying why', async (faucetId) => {
    const result = await h.faucet.status({ faucetId, transactionHash: `0x${'ef'.repeat(32)}`, ip: CLIENT_IP });
    expect(result).toMatchObject({ ok: false, statusCode: 'status_check_failed' });
    expect(!result.ok && result.message).toMatch(/has no RPC endpoint here/);
  });
});

describe('status on a local devnet', () => {
  it('follows a drip from pending to success, without explorer links', async () => {
    const local = await startFaucetRuntime({ env: { DATABASE_PATH: `${h.databasePath}.devnet` } });
    try {
      const sent = await local.faucet.send({ faucetId: 'crucible-testnet', address: randomAddress(), turnstileToken: DEV_TURNSTILE_TOKEN, ip: null });
      if (!sent.ok) throw new Error(`send failed: ${sent.statusCode}`);
      const seen = await pollUntilMined(local, 'crucible-testnet', sent.body.transactionHash);
      expect(seen.at(-1)).toEqual({
        ok: true,
        body: { status: 'success', mined: true, transactionHash: sent.body.transactionHash, chainId: 7357001, chainName: 'Crucible Testnet' },
      });
      for (const result of seen.slice(0, -1)) expect(result).toMatchObject({ ok: true, body: { status: 'pending', success: true, chainId: 7357001 } });
    } finally {
      await local.close();
    }
  });
});
