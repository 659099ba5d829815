import { keccak256, type Address, type Hex, type LocalAccount, type PublicClient } from 'viem';
import { classifyNodeError, isTransportFailure } from './node-errors.ts';

// The one sender of a faucet wallet on one network.
//
// Batches. Sends that wait while a broadcast is under way go out together as the next batch:
// consecutive nonces, signed in order, their write-ahead records made together (one durable
// write: the caller's `beforeBroadcast`), and broadcast in one JSON-RPC batch. Under load that
// is one round trip and one fsync for many sends rather than one each.
//
// Nonces. While batches follow each other back to back the nonce is tracked locally; when the
// queue drains, or after any broadcast that did not go through, the next batch reads the
// node's `pending` count again. A nonce is consumed only when the node took the transaction.
// A nonce error (taken, too low) re-reads the count and retries, a bounded number of times.
// A failure inside a batch whose later nonces were taken would leave a gap that holds those
// back: it is filled at once with a zero-value transfer to the wallet itself.
//
// Unknown outcomes. When neither the broadcast nor the follow-up question ("do you have this
// hash?") gets an answer, the transaction may still be mined: it is reported as `unknown`,
// never as failed, and kept in flight.
//
// In flight. Every transaction the node took (or may have) is watched until it is mined: one
// the node no longer knows (dropped from its mempool) is broadcast again, and if the node
// refuses it now (its fee is too low) it is replaced at the same nonce with a higher fee.
//
// Several processes. With a cross-process lock (Redis) every batch holds the lock from reading
// the nonce to the node's answer, and the nonce is always read from the node under the lock.

export type FeeParams =
  | { type: 'eip1559'; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
  | { type: 'legacy'; gasPrice: bigint };

export interface SignedTransfer {
  hash: Hex;
  nonce: number;
}

export interface TransferRequest {
  to: Address;
  value: bigint;
  gas: bigint;
  fees: FeeParams;
  /**
   * Awaited after signing and before the broadcast: the caller's write-ahead record of the
   * hash. If it rejects, the transaction is not broadcast and the send fails.
   */
  beforeBroadcast?: (tx: SignedTransfer) => Promise<void>;
}

export type SendOutcome =
  | { ok: true; hash: Hex; nonce: number }
  | { ok: false; reason: 'unknown'; hash: Hex; nonce: number; error: unknown }
  | { ok: false; reason: 'insufficient_funds' | 'nonce_conflict' | 'failed'; error: unknown };

/** Serialises sends of one wallet across processes. `acquire` resolves to the release function. */
export interface CrossProcessLock {
  acquire(): Promise<() => Promise<void>>;
}

export interface Sender {
  readonly address: Address;
  send(request: TransferRequest): Promise<SendOutcome>;
  /** True while a transaction of this sender may still be mined (broadcast, or unknown, and not yet mined). */
  isInFlight(hash: Hex): boolean;
  /** Stops watching the transactions in flight. */
  close(): void;
}

export interface SenderOptions {
  client: PublicClient;
  account: LocalAccount;
  chainId: number;
  crossProcessLock?: CrossProcessLock;
  /** Extra attempts after a nonce error before answering `nonce_conflict`. */
  maxNonceRetries?: number;
  /** How often transactions in flight are checked against the node's mempool. */
  watchIntervalMs?: number;
  /** A dropped transaction was replaced at its nonce: the drip now travels under `replacement`. */
  onReplaced?: (original: Hex, replacement: Hex) => void;
  /** Faults of the background watch (default: one JSON line on stderr). */
  logError?: (message: string, error: unknown) => void;
}

const DEFAULT_NONCE_RETRIES = 3;
/** Pause before a retry after a nonce error, times the attempt: lets a lagging node catch up. */
const NONCE_RETRY_PAUSE_MS = 100;
/** The most transactions one batch carries (one JSON-RPC batch, one write-ahead write). */
const MAX_BATCH = 100;
const DEFAULT_WATCH_INTERVAL_MS = 10_000;
/** A replacement must outbid the original by 10% (geth's rule); 25% clears every node's. */
const REPLACEMENT_BUMP_PERCENT = 125n;

interface Waiting {
  request: TransferRequest;
  attempt: number;
  resolve(outcome: SendOutcome): void;
}

interface Signed extends Waiting, SignedTransfer {
  raw: Hex;
}

interface InFlight extends SignedTransfer {
  raw: Hex;
  request: Pick<TransferRequest, 'to' | 'value' | 'gas' | 'fees'>;
  sentAt: number;
}

export function createSender(options: SenderOptions): Sender {
  const { client, account, chainId, crossProcessLock } = options;
  const maxNonceRetries = options.maxNonceRetries ?? DEFAULT_NONCE_RETRIES;
  const watchIntervalMs = options.watchIntervalMs ?? DEFAULT_WATCH_INTERVAL_MS;
  const logError = options.logError ?? defaultLogError;
  const waiting: Waiting[] = [];
  const inFlight = new Map<number, InFlight>();
  let draining = false;
  let cachedNonce: number | null = null;
  let watchTimer: NodeJS.Timeout | null = null;
  let closed = false;

  const sign = (request: InFlight['request'], nonce: number) =>
    account.signTransaction({ chainId, to: request.to, value: request.value, gas: request.gas, nonce, ...request.fees });

  const broadcast = (raw: Hex) => client.request({ method: 'eth_sendRawTransaction', params: [raw] });

  /** Whether the node has the transaction; null when it could not be asked. */
  const nodeKnows = async (hash: Hex): Promise<boolean | null> => {
    try {
      return (await client.request({ method: 'eth_getTransactionByHash', params: [hash] })) !== null;
    } catch {
      return null;
    }
  };

  const track = (tx: Signed) => {
    inFlight.set(tx.nonce, { hash: tx.hash, nonce: tx.nonce, raw: tx.raw, request: tx.request, sentAt: Date.now() });
    if (!watchTimer && !closed) watchTimer = setTimeout(watch, watchIntervalMs);
  };

  /** Signs, records and broadcasts one batch; returns the sends to try again (nonce errors). */
  async function sendBatch(batch: Waiting[]): Promise<Waiting[]> {
    const retry: Waiting[] = [];
    let release: (() => Promise<void>) | undefined;
    try {
      if (crossProcessLock) {
        release = await crossProcessLock.acquire();
        // Another process may have sent since we last did.
        cachedNonce = null;
      }
      const base = cachedNonce ?? (await client.getTransactionCount({ address: account.address, blockTag: 'pending' }));
      const signed: Signed[] = [];
      for (const [i, item] of batch.entries()) {
        const raw = await sign(item.request, base + i);
        signed.push({ ...item, raw, hash: keccak256(raw), nonce: base + i });
      }

      // Write-ahead: nothing is broadcast that its caller has not recorded.
      const recorded = await Promise.allSettled(signed.map((tx) => tx.request.beforeBroadcast?.({ hash: tx.hash, nonce: tx.nonce })));
      const unused: number[] = [];
      const toSend: Signed[] = [];
      for (const [i, tx] of signed.entries()) {
        const record = recorded[i]!;
        if (record.status === 'fulfilled') toSend.push(tx);
        else {
          unused.push(tx.nonce);
          tx.resolve({ ok: false, reason: 'failed', error: record.reason });
        }
      }

      const answers = await Promise.allSettled(toSend.map((tx) => broadcast(tx.raw)));
      // A broadcast can fail after the node took the transaction: ask before calling it failed.
      const known = await Promise.all(toSend.map((tx, i) => (answers[i]!.status === 'fulfilled' ? true : nodeKnows(tx.hash))));
      let highestTaken = -1;
      let nonceInDoubt = false;
      for (const [i, tx] of toSend.entries()) {
        const answer = answers[i]!;
        const error = answer.status === 'rejected' ? answer.reason : undefined;
        if (known[i] === true) {
          highestTaken = Math.max(highestTaken, tx.nonce);
          track(tx);
          tx.resolve({ ok: true, hash: tx.hash, nonce: tx.nonce });
        } else if (known[i] === null && isTransportFailure(error)) {
          // Neither answer arrived: the node may have it. Watched, and never called failed.
          nonceInDoubt = true;
          track(tx);
          tx.resolve({ ok: false, reason: 'unknown', hash: tx.hash, nonce: tx.nonce, error });
        } else {
          const kind = classifyNodeError(error);
          if (kind === 'nonce') {
            nonceInDoubt = true;
            if (tx.attempt < maxNonceRetries) retry.push({ request: tx.request, attempt: tx.attempt + 1, resolve: tx.resolve });
            else tx.resolve({ ok: false, reason: 'nonce_conflict', error });
          } else {
            unused.push(tx.nonce);
            tx.resolve({ ok: false, reason: kind === 'insufficient_funds' ? 'insufficient_funds' : 'failed', error });
          }
        }
      }
      cachedNonce = nonceInDoubt || unused.length ? null : base + batch.length;
      const gaps = unused.filter((nonce) => nonce < highestTaken);
      if (gaps.length) await fillGaps(gaps, batch[0]!.request.fees);
      return retry;
    } catch (error) {
      // RPC failure reading the nonce, a lock that could not be taken, a signing fault. A send
      // already answered keeps its answer (a promise settles once).
      cachedNonce = null;
      for (const item of batch) item.resolve({ ok: false, reason: 'failed', error });
      return [];
    } finally {
      await release?.();
    }
  }

  /** Spends unused nonces below taken ones, so the node does not hold the later ones back. */
  async function fillGaps(nonces: number[], fees: FeeParams) {
    for (const nonce of nonces) {
      const request = { to: account.address, value: 0n, gas: 21_000n, fees };
      const raw = await sign(request, nonce);
      try {
        await broadcast(raw);
        inFlight.set(nonce, { hash: keccak256(raw), nonce, raw, request, sentAt: Date.now() });
      } catch (error) {
        logError(`filling nonce ${nonce} of ${account.address} failed`, error);
      }
    }
  }

  async function drain() {
    draining = true;
    try {
      while (waiting.length) {
        const retry = await sendBatch(waiting.splice(0, MAX_BATCH));
        if (retry.length) {
          waiting.unshift(...retry);
          await sleep(NONCE_RETRY_PAUSE_MS * retry[0]!.attempt);
        }
      }
    } finally {
      // Keep the local nonce only while sends follow each other back to back.
      cachedNonce = null;
      draining = false;
    }
  }

  /** One look at the transactions in flight: forget the mined, re-broadcast the dropped. */
  async function watch() {
    watchTimer = null;
    if (closed) return;
    try {
      if (!draining) await checkInFlight();
    } catch (error) {
      logError(`watching the transactions of ${account.address} failed`, error);
    }
    if (inFlight.size && !closed) watchTimer = setTimeout(watch, watchIntervalMs);
  }

  async function checkInFlight() {
    const mined = await client.getTransactionCount({ address: account.address, blockTag: 'latest' });
    for (const nonce of inFlight.keys()) if (nonce < mined) inFlight.delete(nonce);
    // Only what had a full interval to reach the node's pool is checked.
    const due = [...inFlight.values()].filter((tx) => Date.now() - tx.sentAt >= watchIntervalMs);
    const known = await Promise.all(due.map((tx) => nodeKnows(tx.hash)));
    for (const [i, tx] of due.entries()) {
      if (known[i] !== false) continue;
      try {
        await broadcast(tx.raw);
        tx.sentAt = Date.now();
      } catch (error) {
        const kind = classifyNodeError(error);
        // Its nonce went to another transaction: this one can never be mined.
        if (kind === 'nonce') inFlight.delete(tx.nonce);
        else if (kind === 'other') await replace(tx);
        else logError(`re-broadcasting ${tx.hash} failed`, error);
      }
    }
  }

  /** The same transfer at the same nonce, outbidding both the original and today's fees. */
  async function replace(tx: InFlight) {
    const block = await client.getBlock({ blockTag: 'latest' });
    const floor = (block.baseFeePerGas ?? 0n) * 2n;
    const bump = (fee: bigint) => (fee * REPLACEMENT_BUMP_PERCENT) / 100n + 1n;
    const fees: FeeParams =
      tx.request.fees.type === 'eip1559'
        ? (() => {
            const maxPriorityFeePerGas = bump(tx.request.fees.maxPriorityFeePerGas);
            const maxFeePerGas = max(bump(tx.request.fees.maxFeePerGas), floor + maxPriorityFeePerGas);
            return { type: 'eip1559', maxFeePerGas, maxPriorityFeePerGas };
          })()
        : { type: 'legacy', gasPrice: max(bump(tx.request.fees.gasPrice), floor) };
    const request = { ...tx.request, fees };
    const raw = await sign(request, tx.nonce);
    await broadcast(raw);
    const replacement = { hash: keccak256(raw), nonce: tx.nonce, raw, request, sentAt: Date.now() };
    inFlight.set(tx.nonce, replacement);
    options.onReplaced?.(tx.hash, replacement.hash);
  }

  return {
    address: account.address,
    send: (request) =>
      new Promise<SendOutcome>((resolve) => {
        waiting.push({ request, attempt: 0, resolve });
        if (!draining) void drain();
      }),
    isInFlight: (hash) => [...inFlight.values()].some((tx) => tx.hash === hash),
    close() {
      closed = true;
      if (watchTimer) clearTimeout(watchTimer);
      watchTimer = null;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const max = (a: bigint, b: bigint) => (a > b ? a : b);

/** The error's name only: node messages may quote the RPC URL, and its key. */
function defaultLogError(message: string, error: unknown): void {
  console.error(JSON.stringify({ level: 'error', component: 'sender', message, cause: error instanceof Error ? error.name : typeof error }));
}
