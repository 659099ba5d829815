import { createUpstream, UpstreamError, type Upstream, type UpstreamHealth } from './upstream.ts';

// A network's upstreams (docs/json-rpc.md#upstreams): each is probed for its head; calls go to a healthy
// one (round robin among them); an idempotent read that meets a connection error, a 5xx or a
// timeout is retried once on another. eth_sendRawTransaction is never sent twice blindly:
// before it goes to a second upstream, that upstream is asked whether it knows the transaction.

export interface UpstreamPoolOptions {
  /** The network's upstream URLs, resolved on first use (a local devnet starts then). */
  urls: () => Promise<string[]>;
  timeoutMs?: number;
  /** How often each upstream's head is read. */
  probeIntervalMs?: number;
  /** An upstream this many blocks behind the best head is not used while another is healthy. */
  maxLagBlocks?: number;
  /** Failures in a row that take an upstream out until a probe succeeds. */
  maxConsecutiveFailures?: number;
  /** Error rate (over its last 50 calls) above which an upstream is out until it improves. */
  maxErrorRate?: number;
  now?: () => number;
}

export interface UpstreamPool {
  /**
   * Sends a JSON-RPC body. `retry`: `idempotent` may go to a second upstream after a failure;
   * `transaction` (eth_sendRawTransaction with its hash) asks the second one first; `none` never.
   * Rejects with NoHealthyUpstreamError when no upstream answered. `timeoutMs` replaces the pool's
   * deadline for this call (traces, NODE_UPSTREAM_TRACE_TIMEOUT_MS).
   */
  send(body: string, retry: RetryRule, options?: { timeoutMs?: number }): Promise<string>;
  /** The best head among healthy upstreams (probing once if none is known yet); null when none answers. */
  head(): Promise<bigint | null>;
  /**
   * The number of the `safe` or `finalized` block as an upstream names it, asked once per best
   * head (in-flight asks shared); null when no upstream names it (a failure is asked again).
   */
  taggedBlock(tag: 'safe' | 'finalized'): Promise<bigint | null>;
  health(): Promise<UpstreamHealth[]>;
  /**
   * WebSocket URLs of the upstreams, healthy ones first: the same URL with ws(s):// (anvil and the
   * common providers serve both on one URL). Subscriptions are made there.
   */
  websocketUrls(): Promise<string[]>;
  close(): void;
}

/**
 * `pinned`: always the first healthy upstream in configured order, never retried elsewhere — a
 * filter lives on the upstream that made it.
 */
export type RetryRule = { kind: 'idempotent' } | { kind: 'none' } | { kind: 'pinned' } | { kind: 'transaction'; hash: string };

export class NoHealthyUpstreamError extends Error {
  override name = 'NoHealthyUpstreamError';
  constructor(cause?: unknown) {
    super('no upstream of this network answered', { cause });
  }
}

const defaults = { timeoutMs: 10_000, probeIntervalMs: 2_000, maxLagBlocks: 10, maxConsecutiveFailures: 3, maxErrorRate: 0.5 };

export function createUpstreamPool(options: UpstreamPoolOptions): UpstreamPool {
  const settings = { ...defaults, ...options };
  const now = options.now ?? Date.now;
  let upstreams: Promise<Upstream[]> | undefined;
  /** The upstreams once connected: calls then take them without waiting on a promise. */
  let connected: Upstream[] | undefined;
  let probeTimer: NodeJS.Timeout | undefined;
  let next = 0;
  let closed = false;

  const connect = (): Promise<Upstream[]> => {
    upstreams ??= settings.urls().then((urls) => {
      const list = urls.map((url) => createUpstream(url, { timeoutMs: settings.timeoutMs }));
      if (closed) for (const upstream of list) upstream.close();
      else {
        probeTimer = setInterval(() => void probeAll(list), settings.probeIntervalMs).unref();
        void probeAll(list);
        connected = list;
      }
      return list;
    });
    // A failed start (a devnet that did not come up) is tried again by the next call.
    upstreams.catch(() => (upstreams = undefined));
    return upstreams;
  };

  const probeAll = (list: Upstream[]) =>
    Promise.all(
      list.map(async (upstream) => {
        try {
          const answer = JSON.parse(await upstream.post('{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}')) as { result?: unknown };
          if (typeof answer.result === 'string') upstream.recordHead(BigInt(answer.result), now());
        } catch {
          // Counted in the upstream's failures by post().
        }
      }),
    );

  const bestHead = (list: Upstream[]) =>
    list.reduce<bigint | null>((best, upstream) => {
      const { head } = upstream.health();
      return head !== null && (best === null || head > best) ? head : best;
    }, null);

  const isHealthy = (upstream: Upstream, best: bigint | null) => {
    const health = upstream.health();
    if (health.consecutiveFailures >= settings.maxConsecutiveFailures || health.errorRate > settings.maxErrorRate) return false;
    return best === null || health.head === null || best - health.head <= BigInt(settings.maxLagBlocks);
  };

  /** Healthy upstreams in round-robin order (or configured order when pinned); when none is healthy, all of them (a last try beats a certain 503). */
  const candidates = (list: Upstream[], pinned: boolean): Upstream[] => {
    // One upstream is tried whatever its health.
    if (list.length === 1) return list;
    const best = bestHead(list);
    const healthy = list.filter((upstream) => isHealthy(upstream, best));
    const pool = healthy.length ? healthy : list;
    if (pinned) return pool.slice(0, 1);
    const start = next++ % pool.length;
    return [...pool.slice(start), ...pool.slice(0, start)];
  };

  /** The tagged blocks last asked, with the best head they were asked at. */
  const tagged = new Map<'safe' | 'finalized', { head: bigint; number: Promise<bigint | null> }>();

  const upstreamPool: UpstreamPool = {
    async send(body, retry, options) {
      const timeoutMs = options?.timeoutMs;
      const list =
        connected ??
        (await connect().catch((error: unknown) => {
          throw new NoHealthyUpstreamError(error);
        }));
      const [first, second] = candidates(list, retry.kind === 'pinned');
      if (!first) throw new NoHealthyUpstreamError();
      try {
        return await first.post(body, timeoutMs);
      } catch (error) {
        if (!(error instanceof UpstreamError) || !second || retry.kind === 'none' || retry.kind === 'pinned') throw new NoHealthyUpstreamError(error);
        if (retry.kind === 'transaction') {
          // The first upstream may have broadcast it before failing: if the second knows it, it is sent.
          const known = await second
            .post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getTransactionByHash', params: [retry.hash] }))
            .then((text) => (JSON.parse(text) as { result?: unknown }).result != null)
            .catch(() => undefined);
          if (known === undefined) throw new NoHealthyUpstreamError(error);
          if (known) return rewriteAsHash(body, retry.hash);
        }
        return await second.post(body, timeoutMs).catch((retryError: unknown) => {
          throw new NoHealthyUpstreamError(retryError);
        });
      }
    },
    async head() {
      const list = await connect().catch(() => [] as Upstream[]);
      if (list.length && bestHead(list) === null) await probeAll(list);
      return bestHead(list.filter((upstream) => upstream.health().consecutiveFailures < settings.maxConsecutiveFailures));
    },
    async taggedBlock(tag) {
      const head = await upstreamPool.head();
      if (head === null) return null;
      const known = tagged.get(tag);
      if (known?.head === head) return known.number;
      const number = upstreamPool
        .send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: [tag, false] }), { kind: 'idempotent' })
        .then((text) => {
          const block = (JSON.parse(text) as { result?: { number?: unknown } | null }).result;
          return typeof block?.number === 'string' ? BigInt(block.number) : null;
        })
        .catch(() => null);
      tagged.set(tag, { head, number });
      void number.then((found) => {
        if (found === null && tagged.get(tag)?.number === number) tagged.delete(tag);
      });
      return number;
    },
    async health() {
      const list = await connect().catch(() => [] as Upstream[]);
      return list.map((upstream, index) => ({ ...upstream.health(), label: `${upstream.label}#${index}` }));
    },
    async websocketUrls() {
      const list = await connect().catch(() => [] as Upstream[]);
      const best = bestHead(list);
      const ordered = [...list.filter((upstream) => isHealthy(upstream, best)), ...list.filter((upstream) => !isHealthy(upstream, best))];
      return ordered.map((upstream) => upstream.url.replace(/^http/, 'ws'));
    },
    close() {
      closed = true;
      clearInterval(probeTimer);
      void upstreams?.then(
        (list) => {
          for (const upstream of list) upstream.close();
        },
        () => undefined,
      );
    },
  };
  return upstreamPool;
}

/** The answer eth_sendRawTransaction would have given: the hash, under the caller's id. */
function rewriteAsHash(body: string, hash: string): string {
  const request = JSON.parse(body) as { id?: unknown };
  return JSON.stringify({ jsonrpc: '2.0', id: request.id ?? null, result: hash });
}
