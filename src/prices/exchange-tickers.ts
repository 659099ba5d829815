import type { PricesConfig } from '../config/prices.ts';
import { createExchangeHttp } from './exchanges/http.ts';
import { createExchangeSource, type ExchangeSource } from './exchanges/source.ts';
import type { Observation } from './observation.ts';
import type { ExchangeSourcePlan, PricePlan } from './plan.ts';
import { fail, ok, type Result } from './result.ts';

// The plan's exchange markets as the sampler asks them (docs/prices.md#sources): one HTTP client with the
// configured timeout and a backoff per host, shared by every market; a failure of any kind (timeout,
// refused connection, garbage, backing off) is a value the round records as a skipped source.

export interface ExchangeTickers {
  /** Every market of the plan, by source id: the backfill reads their candles. */
  markets: ReadonlyMap<string, ExchangeSource>;
  ticker(source: ExchangeSourcePlan): Promise<Result<Observation, string>>;
}

export function createExchangeTickers(plan: PricePlan, config: Pick<PricesConfig, 'exchangeUrls' | 'exchangeTimeoutMs'>): ExchangeTickers {
  const http = createExchangeHttp({ timeoutMs: config.exchangeTimeoutMs });
  const markets = new Map<string, ExchangeSource>(
    plan.exchanges.map((source) => [source.id, createExchangeSource(source.spec, source.symbol, { http, baseUrls: config.exchangeUrls })]),
  );
  return {
    markets,
    async ticker(source) {
      const market = markets.get(source.id)!;
      // Tether quotes (Binance) are not dollars: none is listed until the sampler converts them.
      if (market.quote !== 'usd') return fail('unreadable', `${source.id} quotes in USDT, which is not converted`);
      const ticker = await market.ticker();
      return ticker.ok ? ok(ticker.value) : fail('unreadable', ticker.error.message);
    },
  };
}
