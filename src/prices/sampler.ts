import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import type { ContractReader } from '../chain/contract-reader.ts';
import type { AggregateOptions } from './aggregate.ts';
import { readChainSources, type ChainReadCode, type ChainReading } from './chain-reader.ts';
import type { Observation } from './observation.ts';
import type { ExchangeSourcePlan, PricePlan } from './plan.ts';
import { fail, ok, type Result } from './result.ts';
import { samplePrices, type SampleResult } from './sample.ts';
import { recordSample } from './store.ts';

// The sampler (docs/prices.md#sampling): every period, each network's price contracts in one call and each
// exchange's ticker, side by side; the round's observations and aggregates recorded in one
// transaction. It runs in the server, or alone as `npm run worker -- prices`. Several samplers on one
// database are harmless: observations are keyed by source and time, a boundary's first point wins.

export interface PriceSamplerOptions {
  db: Kysely<DatabaseSchema>;
  plan: PricePlan;
  /** A network's chain, or null when the network cannot be read here. */
  chainOf(network: string): ContractReader | null;
  /** An exchange source's ticker now; absent: no exchange is asked. */
  exchangeTicker?(source: ExchangeSourcePlan): Promise<Result<Observation, string>>;
  periodMs: number;
  aggregate: Omit<AggregateOptions, 'now'>;
  now?: () => number;
  /** A round that failed as a whole (the database refused it). */
  onError?(error: unknown): void;
}

export interface PriceSampler {
  /** One round now, recorded; what it found. */
  sampleOnce(): Promise<SampleResult>;
  /** A round now and then one every period, until stop. */
  start(): void;
  stop(): Promise<void>;
}

type NetworkReadings = Result<ReadonlyMap<string, Result<ChainReading, ChainReadCode>>, string>;

export function createPriceSampler(options: PriceSamplerOptions): PriceSampler {
  const now = options.now ?? Date.now;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = false;

  const readNetwork = async (network: string): Promise<NetworkReadings> => {
    const chain = options.chainOf(network);
    if (!chain) return fail('unreadable', `no node serves ${network} here`);
    try {
      return ok(await readChainSources(chain, options.plan.chain.get(network)!));
    } catch (error) {
      return fail('unreadable', `${network} could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const sampleOnce = async (): Promise<SampleResult> => {
    const networks = [...options.plan.chain.keys()];
    const ticker = options.exchangeTicker;
    const [chainReadings, exchangeReadings] = await Promise.all([
      Promise.all(networks.map(readNetwork)),
      Promise.all(ticker ? options.plan.exchanges.map((source) => ticker(source)) : []),
    ]);
    const sampledAt = now();
    const sample = samplePrices({
      plan: options.plan,
      chain: new Map(networks.map((network, i) => [network, chainReadings[i]!])),
      exchanges: new Map(ticker ? options.plan.exchanges.map((source, i) => [source.id, exchangeReadings[i]!]) : []),
      aggregate: { ...options.aggregate, now: sampledAt },
    });
    await recordSample(options.db, sample, sampledAt);
    return sample;
  };

  const tick = () => {
    running = sampleOnce()
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        running = null;
        if (!stopped) timer = setTimeout(tick, options.periodMs);
      });
  };

  return {
    sampleOnce,
    start() {
      if (timer || running || stopped) return;
      tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
