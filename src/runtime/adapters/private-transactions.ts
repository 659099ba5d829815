import { keccak256, type Hex } from 'viem';
import { ContractReadError } from '../../chain/contract-reader.ts';
import type { ServedMethod } from '../../node/execute-calls.ts';
import { rpcFailure } from '../../node/rpc/errors.ts';
import type { RpcOutcome } from '../../node/rpc/jsonrpc.ts';
import type { JsonValue } from '../../node/rpc/method.ts';
import type { UpstreamPool } from '../../node/upstreams/upstream-pool.ts';
import { chainOverPool, outcomeOfReadError, poolRequest } from './contract-reader-over-pool.ts';

// Private transactions on one network (docs/json-rpc.md#private-transactions). On a devnet (a node
// that names itself anvil) the gateway plays the relay: it sends the transaction to the node, keeps
// its hash out of every pending feed it serves while it is pending (`isPrivate`, read by the
// WebSocket's transaction feed), and drops it from the node (anvil_dropTransaction) once a block past
// its maxBlockNumber is mined without it, or when it is cancelled. On any other node both methods go
// to the node by their eth_ names, as the incumbent's relay would take them.
//
// The hashes are held in this process, not the database: only a pending transaction needs hiding,
// and the devnet whose pool holds it lives and dies with the server (a restarted server's
// devnet starts from its saved state, its pool empty).

/** How many blocks a private transaction without maxBlockNumber may wait, as the incumbent's relay (Flashbots) tries for 25. */
const DEFAULT_BLOCKS_TO_WAIT = 25n;

interface PrivateTransaction {
  maxBlockNumber: bigint;
  fast: boolean;
  /** Set once the node took it: before that the sweep leaves it alone (the node does not know it yet). */
  sent: boolean;
}

export interface PrivateTransactions {
  served: Map<string, ServedMethod>;
  /** Whether a pending feed must leave this transaction out (a private one not yet mined or dropped). */
  isPrivate(hash: string): boolean;
  close(): void;
}

export function privateTransactions(network: string, pool: UpstreamPool, options: { checkIntervalMs: number }): PrivateTransactions {
  const held = new Map<string, PrivateTransaction>();
  const read = (method: string, params: unknown[]) => poolRequest(pool, method, params);
  const chain = chainOverPool(pool);
  let isDevnet: Promise<boolean> | undefined;
  /** Whether the node is anvil, asked once (again after a failure to answer). */
  const devnet = () =>
    (isDevnet ??= read('web3_clientVersion', []).then(
      (version) => typeof version === 'string' && version.toLowerCase().startsWith('anvil/'),
      (error: unknown) => {
        if (error instanceof ContractReadError && error.failure.kind === 'node-error') return false;
        isDevnet = undefined;
        throw error;
      },
    ));

  /** The transaction while the node holds it pending (its sender), or null once it is mined or gone. */
  const pendingOrNull = async (hash: string): Promise<{ from: string } | null> => {
    const found = (await read('eth_getTransactionByHash', [hash])) as { blockHash?: string | null; from?: string } | null;
    return found && !found.blockHash && typeof found.from === 'string' ? { from: found.from.toLowerCase() } : null;
  };

  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (timer === undefined && held.size > 0) timer = setTimeout(() => void sweep(), options.checkIntervalMs).unref();
  };
  /** Forgets the mined ones and drops those whose last block has passed. A failed read waits for the next sweep. */
  const sweep = async () => {
    try {
      const head = await chain.blockNumber();
      for (const [hash, tx] of held) {
        if (!tx.sent) continue;
        const found = await pendingOrNull(hash);
        if (found === null) held.delete(hash);
        else if (head >= tx.maxBlockNumber) await drop(hash, found.from);
      }
    } catch {
      // A node that failed or answered oddly is asked again at the next check; nothing is thrown from a timer.
    } finally {
      timer = undefined;
      schedule();
    }
  };
  /**
   * Drops a pending transaction from the node: true once it is gone. anvil_dropTransaction reaches
   * only the transactions anvil holds ready; one it passed over or holds behind a nonce gap goes with
   * anvil_removePoolTransactions, which removes every pooled transaction of the sender, so only when
   * it is the sender's one (otherwise it is tried again at the next check).
   */
  const drop = async (hash: string, from: string): Promise<boolean> => {
    if ((await read('anvil_dropTransaction', [hash])) === null) {
      const pooled = (await read('txpool_content', [])) as Record<'pending' | 'queued', Record<string, Record<string, { hash?: string }>> | undefined>;
      const senders = [pooled.pending, pooled.queued].flatMap((group) => Object.entries(group ?? {}));
      const own = senders.filter(([sender]) => sender.toLowerCase() === from).flatMap(([, byNonce]) => Object.values(byNonce));
      if (own.length !== 1 || own[0]?.hash?.toLowerCase() !== hash) return false;
      await read('anvil_removePoolTransactions', [from]);
    }
    held.delete(hash);
    return true;
  };

  const send = async (request: { tx: Hex; maxBlockNumber?: Hex; preferences?: { fast?: boolean } }): Promise<RpcOutcome> => {
    const hash = keccak256(request.tx);
    const head = await chain.blockNumber();
    const maxBlockNumber = request.maxBlockNumber === undefined ? head + DEFAULT_BLOCKS_TO_WAIT : BigInt(request.maxBlockNumber);
    if (maxBlockNumber <= head) {
      return {
        failure: rpcFailure('invalid_params', { detail: `params[0].maxBlockNumber ${request.maxBlockNumber} has passed: the next block is ${head + 1n}` }),
      };
    }
    // Held before the node hears of it, so its pending announcement already finds it private.
    const tx: PrivateTransaction = { maxBlockNumber, fast: request.preferences?.fast === true, sent: false };
    held.set(hash, tx);
    try {
      const result = await poolRequest(pool, 'eth_sendRawTransaction', [request.tx], { retry: { kind: 'transaction', hash } });
      tx.sent = true;
      schedule();
      return { result: result as JsonValue };
    } catch (error) {
      held.delete(hash);
      throw error;
    }
  };

  const cancel = async ({ txHash }: { txHash: Hex }): Promise<RpcOutcome> => {
    const hash = txHash.toLowerCase();
    const tx = held.get(hash);
    if (!tx?.sent || tx.fast) return { result: false };
    const found = await pendingOrNull(hash);
    if (found === null) {
      held.delete(hash);
      return { result: false };
    }
    return { result: await drop(hash, found.from) };
  };

  /** On a devnet the relay's own answer; elsewhere the node's, to the call by its eth_ name. */
  const method =
    (name: string, onDevnet: (request: never) => Promise<RpcOutcome>): ServedMethod =>
    async (params) => {
      try {
        if (await devnet()) return await onDevnet(params[0] as never);
        return { result: (await poolRequest(pool, name, params, { retry: { kind: 'none' } })) as JsonValue };
      } catch (error) {
        if (error instanceof ContractReadError) return outcomeOfReadError(error, network);
        throw error;
      }
    };

  return {
    served: new Map([
      ['crucible_sendPrivateTransaction', method('eth_sendPrivateTransaction', send)],
      ['crucible_cancelPrivateTransaction', method('eth_cancelPrivateTransaction', cancel)],
    ]),
    isPrivate: (hash) => held.has(hash.toLowerCase()),
    close: () => clearTimeout(timer),
  };
}
