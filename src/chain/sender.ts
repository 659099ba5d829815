import { keccak256, type Address, type Hex, type LocalAccount, type PublicClient } from 'viem';
import { classifyNodeError } from './node-errors.ts';
import { createSerialQueue } from './serial-queue.ts';

// The one sender of a faucet wallet on one network (issue 4, "Correctness under concurrency").
//
// Nonces. Sends go through one queue per wallet. While sends follow each other back to back
// the nonce is tracked locally (no RPC round trip per send); when the queue drains, the
// cached nonce is dropped and the next send reads the node's `pending` count again, so a
// transaction the node dropped cannot leave a gap for long. A nonce is consumed only when
// the node accepted the transaction: a broadcast that fails for another reason leaves it
// for the next send (no gaps). A nonce error (taken, too low, too high) drops the cache and
// retries with the node's `pending` count, a bounded number of times.
//
// Several processes. With a cross-process lock (Redis, src/store/redis-lock.ts) every send
// holds the lock from reading the nonce to the node's answer, and the nonce is always read
// from the node under the lock: nonce state lives in exactly one place, the node.

export type FeeParams =
  | { type: 'eip1559'; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
  | { type: 'legacy'; gasPrice: bigint };

export interface TransferRequest {
  to: Address;
  value: bigint;
  gas: bigint;
  fees: FeeParams;
}

export type SendOutcome =
  | { ok: true; hash: Hex; nonce: number }
  | { ok: false; reason: 'insufficient_funds' | 'nonce_conflict' | 'failed'; error: unknown };

/** Serialises sends of one wallet across processes. `acquire` resolves to the release function. */
export interface CrossProcessLock {
  acquire(): Promise<() => Promise<void>>;
}

export interface Sender {
  readonly address: Address;
  send(request: TransferRequest): Promise<SendOutcome>;
}

export interface SenderOptions {
  client: PublicClient;
  account: LocalAccount;
  chainId: number;
  crossProcessLock?: CrossProcessLock;
  /** Extra attempts after a nonce error before answering `nonce_conflict`. */
  maxNonceRetries?: number;
}

const DEFAULT_NONCE_RETRIES = 3;
/** Pause before a retry after a nonce error, times the attempt: lets a lagging node catch up. */
const NONCE_RETRY_PAUSE_MS = 100;

export function createSender(options: SenderOptions): Sender {
  const { client, account, chainId, crossProcessLock } = options;
  const maxNonceRetries = options.maxNonceRetries ?? DEFAULT_NONCE_RETRIES;
  const queue = createSerialQueue();
  let cachedNonce: number | null = null;

  const nextNonce = async () => (cachedNonce ??= await client.getTransactionCount({ address: account.address, blockTag: 'pending' }));

  /** Whether the node has our transaction: a broadcast can fail after the node accepted it. */
  const nodeHas = async (hash: Hex) => {
    try {
      await client.getTransaction({ hash });
      return true;
    } catch {
      return false;
    }
  };

  const broadcast = async (request: TransferRequest): Promise<SendOutcome> => {
    for (let attempt = 0; ; attempt++) {
      const nonce = await nextNonce();
      const serializedTransaction = await account.signTransaction({
        chainId,
        to: request.to,
        value: request.value,
        gas: request.gas,
        nonce,
        ...request.fees,
      });
      const hash = keccak256(serializedTransaction);
      try {
        await client.sendRawTransaction({ serializedTransaction });
        cachedNonce = nonce + 1;
        return { ok: true, hash, nonce };
      } catch (error) {
        if (await nodeHas(hash)) {
          cachedNonce = nonce + 1;
          return { ok: true, hash, nonce };
        }
        const kind = classifyNodeError(error);
        if (kind === 'insufficient_funds') return { ok: false, reason: 'insufficient_funds', error };
        if (kind === 'other') return { ok: false, reason: 'failed', error };
        cachedNonce = null;
        if (attempt >= maxNonceRetries) return { ok: false, reason: 'nonce_conflict', error };
        await new Promise((resolve) => setTimeout(resolve, NONCE_RETRY_PAUSE_MS * (attempt + 1)));
      }
    }
  };

  return {
    address: account.address,
    send: (request) =>
      queue.run(async () => {
        let release: (() => Promise<void>) | undefined;
        try {
          if (crossProcessLock) {
            release = await crossProcessLock.acquire();
            // Another process may have sent since we last did.
            cachedNonce = null;
          }
          return await broadcast(request);
        } catch (error) {
          // RPC failure reading the nonce, a lock that could not be taken, a signing fault.
          return { ok: false, reason: 'failed', error };
        } finally {
          // Keep the local nonce only while more sends are queued right behind this one.
          if (queue.size <= 1) cachedNonce = null;
          await release?.();
        }
      }),
  };
}
