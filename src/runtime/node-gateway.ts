import { createAdmission, type Admission, type UsageRecorder } from '../admission/admission.ts';
import type { KeyLookup } from '../admission/callers.ts';
import type { LocalDevnets } from '../chain/local-devnets.ts';
import { defaultLocale } from '../site/locales.ts';
import type { NetworkRecord } from '../site/records.ts';
import { pageUrl } from '../site/urls.ts';
import { createAnswerCache } from '../node/answer-cache.ts';
import type { ServedMethod } from '../node/execute-calls.ts';
import { createNodeGateway, type GatewayNetwork, type NodeGateway, type NodeGatewayOptions } from '../node/gateway.ts';
import type { NodeConfig } from '../config/node.ts';
import type { QuotaCounter } from '../limits/quota.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import { createNodeMetrics, type NodeMetrics } from '../node/metrics.ts';
import { nodeUrlOf } from '../node/node-url.ts';
import { openRpcDocument } from '../node/rpc/openrpc.ts';
import { chainOverPool } from './adapters/contract-reader-over-pool.ts';
import { privateTransactions, type PrivateTransactions } from './adapters/private-transactions.ts';
import { simulationMethods } from './adapters/simulation-methods.ts';
import { tokenMethods } from './adapters/token-methods.ts';
import { devnetGetCode } from './adapters/devnet-code-history.ts';
import { createUpstreamPool, type UpstreamPool } from '../node/upstreams/upstream-pool.ts';
import type { TokenMetadataReader } from '../tokens/metadata.ts';
import type { TokenIndex } from '../tokens/token-index.ts';
import type { TokenList } from '../token-list/token-list.ts';

// Wires the gateway from its configuration and the parts the server holds (the app store's key
// lookup, limits, usage meter): the admission of every keyed call (src/admission/, which the keyed
// REST door shares), and one upstream pool per network, each network's upstreams being its
// configured URLs or, in local mode, the devnet the faucet drips on.

export interface NodeRuntimeOptions {
  networks: readonly NetworkRecord[];
  config: NodeConfig;
  /** Local mode: networks without configured upstreams use these devnets. null: production. */
  devnets: LocalDevnets | null;
  /** The key lookup, which forgets what it remembers when apps' keys change in this process. */
  keys: KeyLookup & { forgetAll(): void };
  rateLimiter: RateLimiter;
  quota: QuotaCounter;
  usage: UsageRecorder;
  siteOrigin: string;
  /** IPv6 clients of the demo key count per prefix of this length. */
  ipv6PrefixLength: number;
  /** How deeply a JSON-RPC body may nest (JSON_MAX_DEPTH, a server setting); default the gateway's. */
  jsonMaxDepth?: number;
  /** Test settings for the pools (faster probes). */
  pool?: { probeIntervalMs?: number };
  /**
   * The token data methods (docs/token-data.md#failures) and the simulations
   * (docs/tracing-and-simulation.md#simulation), which read the token metadata; without it they
   * answer -32601 on every network.
   */
  tokens?: {
    /** A network's transfer index. */
    indexOf(network: string): TokenIndex;
    metadata: TokenMetadataReader;
    list: TokenList;
  };
  /** Told of each transaction an app's key broadcast (the transaction webhooks' recorder). */
  onBroadcast?: NodeGatewayOptions['onBroadcast'];
}

export interface NodeRuntime {
  gateway: NodeGateway;
  /** Keys, apps, compute units and metering of every keyed call: the gateway's, and the REST door's. */
  admission: Admission;
  metrics: NodeMetrics;
  /** The pools by network id (health for /metrics). */
  pools: ReadonlyMap<string, UpstreamPool>;
  /** The networks whose upstreams are known: configured, or a local devnet once started (GET /readyz asks these). */
  upstreamsInUse(): string[];
  /**
   * Apps' keys or states changed in this process (the dashboard calls it): the key lookup
   * forgets what it remembers, and the listeners (open WebSockets) check their keys again, so a
   * rotated, disabled or deleted app's key is refused at once here.
   */
  forgetKeys(): void;
  /** Adds a listener to forgetKeys; returns its removal. */
  onKeysForgotten(listener: () => void): () => void;
  close(): void;
}

export function startNodeRuntime(options: NodeRuntimeOptions): NodeRuntime {
  const { config, devnets } = options;
  const networks = new Map<string, GatewayNetwork>();
  const pools = new Map<string, UpstreamPool>();
  const privates: PrivateTransactions[] = [];
  const inUse = new Set<string>();
  for (const record of options.networks) {
    const configured = config.upstreams[record.id] ?? [];
    const evm = record.vm !== 'starknet' && record.chainId !== null;
    if (configured.length) inUse.add(record.id);
    const urls = async (): Promise<string[]> => {
      if (configured.length) return configured;
      if (!(devnets && evm)) return [];
      const url = await devnets.rpcUrlFor({ id: record.id, chainId: record.chainId! });
      inUse.add(record.id);
      return [url];
    };
    const pool = createUpstreamPool({ urls, timeoutMs: config.upstreamTimeoutMs, ...options.pool });
    pools.set(record.id, pool);
    const { tokens } = options;
    // On a local devnet the token list's world addresses apply, not the real network's.
    const localWorld = configured.length === 0 && devnets !== null;
    const served = new Map<string, ServedMethod>();
    if (tokens && evm) {
      const chain = chainOverPool(pool);
      const logos = tokens.list.logos(record.id, { localWorld });
      const { symbol, decimals } = record.nativeCurrency;
      for (const [name, method] of [
        ...tokenMethods({
          network: record.id,
          nativeCurrency: record.nativeCurrency,
          chain,
          index: tokens.indexOf(record.id),
          metadata: tokens.metadata,
          logos,
        }),
        ...simulationMethods({
          network: record.id,
          pool,
          chain,
          traceTimeoutMs: config.upstreamTraceTimeoutMs,
          tokenMetadata: (contract) => tokens.metadata.getTokenMetadata(record.id, chain, logos, contract),
          // The currency's name and logo from the token list, as a token's are; its symbol as the network names it.
          native: { name: symbol, logo: null, ...tokens.list.nativeCurrency(symbol), symbol, decimals },
        }),
      ])
        served.set(name, method);
    }
    // Private transactions: a devnet's are relayed here, another node's go to it (docs/json-rpc.md#private-transactions).
    const hidden = evm ? privateTransactions(record.id, pool, { checkIntervalMs: config.privateTransactionCheckMs }) : null;
    if (hidden) {
      privates.push(hidden);
      for (const [name, method] of hidden.served) served.set(name, method);
    }
    // A devnet answers eth_getCode at blocks whose state anvil no longer holds (alchemy-sdk's findContractDeployer).
    if (localWorld && evm) served.set('eth_getCode', devnetGetCode(record.id, pool));
    const nodeUrl = nodeUrlOf(record.id, { siteOrigin: options.siteOrigin, nodeDomain: config.nodeDomain });
    let document: ReturnType<typeof openRpcDocument> | undefined;
    networks.set(record.id, {
      id: record.id,
      name: record.name,
      chainId: record.chainId,
      finalityDepth: BigInt(record.finalityBlocks),
      pool,
      traceTimeoutMs: config.upstreamTraceTimeoutMs,
      served,
      ...(hidden ? { isPrivateTransaction: hidden.isPrivate } : {}),
      openRpcDocument: () =>
        (document ??= openRpcDocument({
          network: { id: record.id, name: record.name, chainId: record.chainId },
          serverUrl: `${nodeUrl}/v2/demo`, // a real URI: the demo key answers on every network
          docsUrl: rpcDocsUrl(options.siteOrigin, record.id),
        })) as never,
    });
  }
  const metrics = createNodeMetrics(pools);
  const keysForgotten = new Set<() => void>();
  const admission = createAdmission({
    keys: options.keys,
    rateLimiter: options.rateLimiter,
    quota: options.quota,
    usage: options.usage,
    observeCall: metrics.observeCall,
    demo: config.demoLimit,
    account: config.accountLimit,
    ipv6PrefixLength: options.ipv6PrefixLength,
  });
  const gateway = createNodeGateway({
    networks,
    admission,
    cache: createAnswerCache(),
    minRequestComputeUnits: config.minRequestComputeUnits,
    jsonMaxDepth: options.jsonMaxDepth,
    docsUrl: (network) => rpcDocsUrl(options.siteOrigin, network),
    documentationUrl: new URL('/openapi.json', options.siteOrigin).href,
    onBroadcast: options.onBroadcast,
  });
  return {
    gateway: {
      ...gateway,
      async handle(request, target, context) {
        const started = performance.now();
        const response = await gateway.handle(request, target, context);
        // Unknown networks are one label, so made-up names cannot grow the metrics without bound.
        const network = networks.has(target.network) ? target.network : 'unknown';
        metrics.observeRequest({ network, transport: 'http', status: response.status, seconds: (performance.now() - started) / 1000 });
        return response;
      },
      post(request, network, key, context) {
        const started = performance.now();
        return gateway.post(request, network, key, context).then((reply) => {
          metrics.observeRequest({ network, transport: 'http', status: reply.status, seconds: (performance.now() - started) / 1000 });
          return reply;
        });
      },
    },
    admission,
    metrics,
    pools,
    upstreamsInUse: () => [...inUse],
    forgetKeys: () => {
      options.keys.forgetAll();
      for (const listener of keysForgotten) listener();
    },
    onKeysForgotten: (listener) => {
      keysForgotten.add(listener);
      return () => keysForgotten.delete(listener);
    },
    close: () => {
      for (const pool of pools.values()) pool.close();
      for (const hidden of privates) hidden.close();
    },
  };
}

/** The network's RPC page (docs/json-rpc.md#endpoint), which lists its methods and links the method reference. */
export function rpcDocsUrl(siteOrigin: string, network: string): string {
  return new URL(pageUrl(defaultLocale, 'rpc', network), siteOrigin).href;
}
