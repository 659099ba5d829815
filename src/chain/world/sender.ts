import { concat, createClient, createTestClient, http, publicActions, type Address, type Hash, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { WORLD_DEPLOYER, WORLD_DEPLOYER_KEY } from './actors.ts';
import type { WorldCall } from './history.ts';
import { CREATE2_DEPLOYER, type create2Install } from './manifest.ts';

// Sends the world's transactions on an anvil devnet. The devnets mine on an interval, so rather than
// wait for it, each wave of transactions goes into the pool together (explicit nonces and gas) and
// anvil_mine includes them at once. A wave holds at most one transaction per sender, sent once the
// sender's previous one is mined: anvil files a transaction whose predecessor is not mined yet as
// waiting for it, and if the predecessor is mined while the later one is being added (automine, or a
// mined block landing between the two), the later one waits in the pool for good. A transaction whose
// nonce is the sender's mined nonce waits for nothing, whatever anvil is doing meanwhile.

/** A world transaction failed: a bug in the world's data or contracts, never a state to live with. */
class WorldTransactionError extends Error {
  readonly code = 'world_transaction_failed';
}

const PRIORITY_FEE = 1_000_000_000n;
/** Blocks mined for one wave before its transactions count as stuck. */
const MAX_BLOCKS_PER_WAVE = 20;

export type AnvilClient = ReturnType<typeof connectAnvil>;

export const connectAnvil = (rpcUrl: string) => {
  const transport = http(rpcUrl, { batch: true });
  // `raw` for the calls whose answers viem's actions would not give as they are (a missing receipt is null, not an error).
  return createTestClient({ mode: 'anvil', transport })
    .extend(publicActions)
    .extend(() => ({ raw: createClient({ transport }).request }));
};

/** The deployer's call that creates a contract through CREATE2_DEPLOYER. */
export function create2Call(contract: { id: string; install: ReturnType<typeof create2Install>['install'] }): WorldCall {
  return { from: WORLD_DEPLOYER, to: CREATE2_DEPLOYER, data: concat([contract.install.salt, contract.install.initCode]), label: `deploy ${contract.id}` };
}

export interface WorldSender {
  /** Sends one round of calls, none depending on another of the round, and mines until all are in; returns how many were sent. */
  run(calls: readonly WorldCall[]): Promise<number>;
}

/**
 * Sends rounds of calls: the deployer's signed with its key, every other actor's through anvil's
 * impersonation (they have no keys).
 */
export async function createWorldSender(client: AnvilClient): Promise<WorldSender> {
  const deployer = privateKeyToAccount(WORLD_DEPLOYER_KEY);
  const chainId = await client.getChainId();
  const nonces = new Map<Address, number>();
  const nextNonce = async (address: Address) => {
    const nonce = nonces.get(address) ?? (await client.getTransactionCount({ address, blockTag: 'pending' }));
    nonces.set(address, nonce + 1);
    return nonce;
  };

  const sendOne = async (call: WorldCall, gas: bigint, maxFeePerGas: bigint, nonce: number): Promise<Hash> => {
    const fields = { to: call.to, data: call.data, gas, nonce, maxFeePerGas, maxPriorityFeePerGas: PRIORITY_FEE, value: call.value ?? 0n };
    if (call.from === WORLD_DEPLOYER) {
      const signed = await deployer.signTransaction({ ...fields, chainId, type: 'eip1559' });
      return client.sendRawTransaction({ serializedTransaction: signed });
    }
    const numbers = { gas: hex(gas), nonce: hex(nonce), maxFeePerGas: hex(maxFeePerGas), maxPriorityFeePerGas: hex(PRIORITY_FEE), value: hex(fields.value) };
    return client.raw({ method: 'eth_sendTransaction', params: [{ ...fields, from: call.from, ...numbers }] });
  };

  return {
    async run(calls) {
      if (!calls.length) return 0;
      const impersonated = [...new Set(calls.map((call) => call.from))].filter((address) => address !== WORLD_DEPLOYER);
      await Promise.all(impersonated.map((address) => client.impersonateAccount({ address })));
      try {
        // Every call of a round is estimated on the state the previous rounds left (none depends on another of its round).
        const [gases, { gasLimit }] = await Promise.all([
          Promise.all(
            calls.map((call) =>
              client.estimateGas({ account: call.from, to: call.to, data: call.data, value: call.value }).catch((error: unknown) => {
                throw new WorldTransactionError(`${call.label} would fail: ${(error as Error).message}`);
              }),
            ),
          ),
          client.getBlock(),
        ]);
        // A margin over each estimate, within the block gas limit (the airdrop alone takes most of a block).
        const gasOf = new Map(calls.map((call, i) => [call, bigMin((gases[i]! * 6n) / 5n, gasLimit)]));
        for (const wave of wavesOf(calls)) {
          const block = await client.getBlock();
          const maxFeePerGas = (block.baseFeePerGas ?? 0n) * 3n + PRIORITY_FEE;
          const nonces = await Promise.all(wave.map((call) => nextNonce(call.from)));
          const hashes = await Promise.all(wave.map((call, i) => sendOne(call, gasOf.get(call)!, maxFeePerGas, nonces[i]!)));
          await mineUntilIncluded(client, wave, hashes);
        }
        return calls.length;
      } finally {
        await Promise.all(impersonated.map((address) => client.stopImpersonatingAccount({ address })));
      }
    },
  };
}

/** The round's calls in waves: the k-th wave holds each sender's k-th call, so a sender's calls keep their order. */
function wavesOf(calls: readonly WorldCall[]): WorldCall[][] {
  const waves: WorldCall[][] = [];
  const sent = new Map<Address, number>();
  for (const call of calls) {
    const k = sent.get(call.from) ?? 0;
    sent.set(call.from, k + 1);
    (waves[k] ??= []).push(call);
  }
  return waves;
}

const hex = (value: bigint | number): Hex => `0x${value.toString(16)}`;
const bigMin = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** Mines until every transaction of the wave has a receipt (with automine they may have one already). */
async function mineUntilIncluded(client: AnvilClient, calls: readonly WorldCall[], hashes: Hash[]): Promise<void> {
  let pending = hashes.map((hash, i) => ({ hash, call: calls[i]! }));
  for (let blocks = 0; ; blocks++) {
    const receipts = await Promise.all(pending.map(({ hash }) => client.raw({ method: 'eth_getTransactionReceipt', params: [hash] })));
    const reverted = pending.filter((_, i) => receipts[i] && receipts[i].status !== '0x1');
    if (reverted.length) throw new WorldTransactionError(`reverted: ${reverted.map(({ call }) => call.label).join('; ')}`);
    pending = pending.filter((_, i) => !receipts[i]);
    if (!pending.length) return;
    if (blocks === MAX_BLOCKS_PER_WAVE)
      throw new WorldTransactionError(`not mined after ${blocks} blocks: ${pending.map(({ call }) => call.label).join('; ')}`);
    await client.mine({ blocks: 1 });
  }
}
