import { describe, expect, it } from 'vitest';
import { createExchangeHttp } from '../../../../src/prices/exchanges/http.ts';
import { createExchangeSource } from '../../../../src/prices/exchanges/source.ts';
import { exchangeListing } from '../../../../src/token-list/price-sources.ts';

describe('exchangeListing', () => {
  it('takes dollar markets, and USDT ones on Binance', () => {
    expect(exchangeListing.parse({ exchange: 'coinbase', product: 'ETH-USD' })).toEqual({ exchange: 'coinbase', product: 'ETH-USD' });
    expect(exchangeListing.parse({ exchange: 'kraken', pair: 'XETHZUSD' })).toEqual({ exchange: 'kraken', pair: 'XETHZUSD' });
    expect(exchangeListing.parse({ exchange: 'binance', symbol: 'ETHUSDT' })).toEqual({ exchange: 'binance', symbol: 'ETHUSDT' });
  });

  it('refuses markets in other currencies, unknown exchanges and stray fields, saying why', () => {
    const message = (entry: unknown) => exchangeListing.safeParse(entry).error?.issues[0]?.message;
    expect(message({ exchange: 'coinbase', product: 'ETH-USDC' })).toBe('must be a Coinbase Exchange product quoted in dollars, such as ETH-USD');
    expect(message({ exchange: 'kraken', pair: 'XBTUSDT' })).toBe('must be a Kraken pair quoted in dollars, such as XETHZUSD or ETHUSD');
    expect(message({ exchange: 'binance', symbol: 'ETHBTC' })).toBe('must be a Binance symbol quoted in USDT, such as ETHUSDT');
    expect(message({ exchange: 'bitstamp', pair: 'ethusd' })).toBe('must name its exchange: coinbase, kraken or binance');
    expect(exchangeListing.safeParse({ exchange: 'coinbase', product: 'ETH-USD', pair: 'XETHZUSD' }).success).toBe(false);
  });
});

describe('createExchangeSource', () => {
  it('names each source as its observations do, with what its quotes are in', () => {
    const http = createExchangeHttp();
    const sources = [
      { exchange: 'coinbase', product: 'ETH-USD' },
      { exchange: 'kraken', pair: 'XETHZUSD' },
      { exchange: 'binance', symbol: 'ETHUSDT' },
    ].map((entry) => createExchangeSource(exchangeListing.parse(entry), 'ETH', { http }));
    expect(sources.map(({ id, exchange, symbol, quote }) => ({ id, exchange, symbol, quote }))).toEqual([
      { id: 'coinbase:ETH-USD', exchange: 'coinbase', symbol: 'ETH', quote: 'usd' },
      { id: 'kraken:XETHZUSD', exchange: 'kraken', symbol: 'ETH', quote: 'usd' },
      { id: 'binance:ETHUSDT', exchange: 'binance', symbol: 'ETH', quote: 'usdt' },
    ]);
  });
});
