import { keccak256, type Address, type Hex, type PublicClient } from 'viem';
import { classifyNodeError, isTransportFailure } from './node-errors.ts';
import type { FeeParams, TransferSigner } from './transfer-signer.ts';

// The one sender of a faucet wallet on one network.
//
// Batches. Sends that wait while a batch is being prepared go out together as the next batch:
// consecutive nonces, signed in order, their write-ahead records made
// together (one durable write: the caller's `beforeBroadcast`), and broadcast in one JSON-RPC
// batch. Under load that is one round trip and one fsync for many sends rather than one each.
// The next batch is prepared while the last one is broadcast (two under way at most).
//
// Nonces. While batches follow each other the nonce is tracked locally. After any broadcast
// that did not go through, or once nothing is under way, the next batch reads the node's
// `pending` count again, after every broadcast under way has answered. A nonce is consumed
// only when the node took the transaction. A nonce error (taken, too low) re-reads the count
// and retries, a bounded number of times. A nonce no transaction took, below one that was
// taken, would hold the later ones back: before the re-read it is filled with a zero-value
// transfer to the wallet itself.
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

export interface SignedTransfer {
  hash: Hex;
  nonce: number;
}

interface TransferRequest {
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
  /** Holds the wallet's key. */
  signer: TransferSigner;
  chainId: number;
  crossProcessLock?: CrossProcessLock;
  /** Extra attempts after a nonce error before answering `nonce_conflict`. */
  maxNonceRetries?: number;
  /** How often transactions in flight are checked against the node's mempool. */
  watchIntervalMs?: number;
  /** Gas of a zero-value transfer to the wallet itself (gap fills): 21,000 on L1, more where L2s add their L1 data cost. */
  selfTransferGas?: () => Promise<bigint>;
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
/** Batches under way at once: the next is signed and recorded while the last is broadcast. */
const PIPELINE_DEPTH = 2;
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
  const { client, signer, chainId, crossProcessLock } = options;
  const { address } = signer;
  const maxNonceRetries = options.maxNonceRetries ?? DEFAULT_NONCE_RETRIES;
  const watchIntervalMs = options.watchIntervalMs ?? DEFAULT_WATCH_INTERVAL_MS;
  const logError = options.logError ?? defaultLogError;
  const selfTransferGas = options.selfTransferGas ?? (async () => 21_000n);
  const waiting: Waiting[] = [];
  const inFlight = new Map<number, InFlight>();
  let draining = false;
  let nextNonce: number | null = null;
  let watchTimer: NodeJS.Timeout | null = null;
  let closed = false;

  const sign = (requests: Array<InFlight['request']>, firstNonce: number) =>
    signer.sign(requests.map(({ to, value, gas, fees }, i) => ({ chainId, to, value, gas, fees, nonce: firstNonce + i })));

  // No transport retries: a broadcast is never repeated blindly, and a batch must answer well
  // within the cross-process lock's lifetime.
  const broadcast = (raw: Hex) => client.request({ method: 'eth_sendRawTransaction', params: [raw] }, { retryCount: 0 });

  /** Whether the node has the transaction; null when it could not be asked. */
  const nodeKnows = async (hash: Hex): Promise<boolean | null> => {
    try {
      return (await client.request({ method: 'eth_getTransactionByHash', params: [hash] }, { retryCount: 0 })) !== null;
    } catch {
      return null;
    }
  };

  const track = (tx: Signed) => {
    inFlight.set(tx.nonce, { hash: tx.hash, nonce: tx.nonce, raw: tx.raw, request: tx.request, sentAt: Date.now() });
    if (!watchTimer && !closed) watchTimer = setTimeout(watch, watchIntervalMs);
  };

  /** Nonces signed but not taken since the last resync, and the highest taken: what gap filling needs. */
  let unused: number[] = [];
  let highestTaken = -1;
  const broadcasting = new Set<Promise<void>>();

  /**
   * Stage one, one batch at a time: nonces, signatures, write-ahead records. Returns the
   * batch's broadcast (stage two), which runs while the next batch is prepared.
   */
  async function prepareBatch(batch: Waiting[]): Promise<{ broadcast: Promise<void> }> {
    let release: (() => Promise<void>) | undefined;
    try {
      if (crossProcessLock) {
        release = await crossProcessLock.acquire();
        // Another process may have sent since we last did.
        nextNonce = null;
      }
      if (nextNonce === null) {
        // Resync: only once every broadcast under way has answered, so the node's count includes them.
        await Promise.all(broadcasting);
        await fillGaps(batch[0]!.request.fees);
        nextNonce = await client.getTransactionCount({ address, blockTag: 'pending' });
      }
      const base = nextNonce;
      nextNonce += batch.length;
      const raws = sign(
        batch.map((item) => item.request),
        base,
      );
      const signed: Signed[] = batch.map((item, i) => ({ ...item, raw: raws[i]!, hash: keccak256(raws[i]!), nonce: base + i }));
      // Write-ahead: nothing is broadcast that its caller has not recorded.
      const recorded = await Promise.allSettled(signed.map((tx) => tx.request.beforeBroadcast?.({ hash: tx.hash, nonce: tx.nonce })));
      const toSend = signed.filter((tx, i) => {
        const record = recorded[i]!;
        if (record.status === 'rejected') {
          notTaken(tx.nonce);
          tx.resolve({ ok: false, reason: 'failed', error: record.reason });
        }
        return record.status === 'fulfilled';
      });
      const held = release;
      release = undefined;
      return { broadcast: broadcastBatch(toSend).finally(() => held?.()) };
    } catch (error) {
      // RPC failure reading the nonce, a lock that could not be taken, a signing fault: nothing left.
      nextNonce = null;
      for (const item of batch) item.resolve({ ok: false, reason: 'failed', error });
      await release?.();
      return { broadcast: Promise.resolve() };
    }
  }

  /** Stage two: the batch in one JSON-RPC batch, each answer classified. */
  async function broadcastBatch(batch: Signed[]): Promise<void> {
    const answers = await Promise.allSettled(batch.map((tx) => broadcast(tx.raw)));
    // A broadcast can fail after the node took the transaction: ask before calling it failed.
    const known = await Promise.all(batch.map((tx, i) => (answers[i]!.status === 'fulfilled' ? true : nodeKnows(tx.hash))));
    const retry: Waiting[] = [];
    for (const [i, tx] of batch.entries()) {
      const answer = answers[i]!;
      const error = answer.status === 'rejected' ? answer.reason : undefined;
      if (known[i] === true) {
        highestTaken = Math.max(highestTaken, tx.nonce);
        track(tx);
        tx.resolve({ ok: true, hash: tx.hash, nonce: tx.nonce });
      } else if (isTransportFailure(error)) {
        // The broadcast got no answer: the node may have it, or get it late (behind a slow or
        // load-balanced endpoint, "no" now is no proof). Watched, and never called failed.
        nextNonce = null;
        track(tx);
        tx.resolve({ ok: false, reason: 'unknown', hash: tx.hash, nonce: tx.nonce, error });
      } else {
        const kind = classifyNodeError(error);
        if (kind === 'nonce') {
          nextNonce = null;
          if (tx.attempt < maxNonceRetries) retry.push({ request: tx.request, attempt: tx.attempt + 1, resolve: tx.resolve });
          else tx.resolve({ ok: false, reason: 'nonce_conflict', error });
        } else {
          notTaken(tx.nonce);
          tx.resolve({ ok: false, reason: kind === 'insufficient_funds' ? 'insufficient_funds' : 'failed', error });
        }
      }
    }
    if (retry.length) {
      // Behind a pause that lets a lagging node catch up, ahead of newer sends.
      await sleep(NONCE_RETRY_PAUSE_MS * retry[0]!.attempt);
      waiting.unshift(...retry);
      if (!draining) void drain();
    }
  }

  /** A signed nonce that no transaction took: the next resync fills it if a later one was taken. */
  function notTaken(nonce: number) {
    unused.push(nonce);
    nextNonce = null;
  }

  /**
   * Spends unused nonces below taken ones, so the node does not hold the later ones back. Only
   * nonces of the batches since the last resync count: the node's count may go back (it evicts
   * queued transactions when the wallet's balance drops), and a new count starts afresh.
   */
  async function fillGaps(fees: FeeParams) {
    const gaps = unused.filter((nonce) => nonce < highestTaken);
    const failed: number[] = [];
    if (gaps.length) {
      const request = { to: address, value: 0n, gas: await selfTransferGas(), fees };
      for (const nonce of gaps) {
        try {
          const raw = sign([request], nonce)[0]!;
          await broadcast(raw);
          inFlight.set(nonce, { hash: keccak256(raw), nonce, raw, request, sentAt: Date.now() });
        } catch (error) {
          failed.push(nonce);
          logError(`filling nonce ${nonce} of ${address} failed`, error);
        }
      }
    }
    // A fill that failed is tried again at the next resync.
    unused = failed;
    if (!failed.length) highestTaken = -1;
  }

  async function drain() {
    draining = true;
    try {
      while (waiting.length) {
        const { broadcast } = await prepareBatch(waiting.splice(0, MAX_BATCH));
        broadcasting.add(broadcast);
        void broadcast.finally(() => {
          broadcasting.delete(broadcast);
          // Truly idle: the next send reads the node's count again.
          if (!draining && broadcasting.size === 0 && waiting.length === 0) nextNonce = null;
        });
        // With a cross-process lock the batch holds the lock until it is answered: no overlap.
        // Without, at most two batches are under way: one broadcasting, one being prepared.
        if (crossProcessLock || broadcasting.size >= PIPELINE_DEPTH) await Promise.race(broadcasting);
      }
    } finally {
      draining = false;
      if (broadcasting.size === 0) nextNonce = null;
    }
  }

  /** One look at the transactions in flight: forget the mined, re-broadcast the dropped. */
  async function watch() {
    if (closed) return;
    try {
      // Only transactions already answered are in flight, so this is safe while batches go out.
      await checkInFlight();
    } catch (error) {
      logError(`watching the transactions of ${address} failed`, error);
    }
    // One loop: the timer stays set while it runs, so track() starts no second one.
    watchTimer = inFlight.size && !closed ? setTimeout(watch, watchIntervalMs) : null;
  }

  async function checkInFlight() {
    const mined = await client.getTransactionCount({ address, blockTag: 'latest' });
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
    const raw = sign([request], tx.nonce)[0]!;
    await broadcast(raw);
    const replacement = { hash: keccak256(raw), nonce: tx.nonce, raw, request, sentAt: Date.now() };
    inFlight.set(tx.nonce, replacement);
    options.onReplaced?.(tx.hash, replacement.hash);
  }

  return {
    address,
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
