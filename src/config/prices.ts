import { z } from 'zod';
import type { Env } from './env.ts';
import { decimalNumber, wholeNumber } from './numbers.ts';
import { readConfigVariable } from './variable.ts';

// How prices are sampled and served (docs/prices.md#sampling), validated; a bad value stops start-up with a
// message naming the variable. Every variable is listed in .env.example.

const EXCHANGES = ['coinbase', 'kraken'] as const;
type Exchange = (typeof EXCHANGES)[number];

export interface PricesConfig {
  /** PRICES_SAMPLE_SECONDS (default 300): how often every source is read and each token aggregated. */
  sampleMs: number;
  /** PRICES_IN_SERVER (on|off, default on): the sampler runs in the server; off: `npm run worker -- prices` runs it. */
  inServer: boolean;
  /** PRICES_WORLD_NETWORK: the devnet whose local world pools and feeds are read; default ethereum-sepolia in local mode, none otherwise. */
  worldNetwork: string | null;
  /** PRICES_EXCHANGES: comma-separated exchanges asked (coinbase, kraken; `none`); default both outside local mode, none in it (offline). */
  exchanges: ReadonlySet<Exchange>;
  /** PRICES_COINBASE_URL and PRICES_KRAKEN_URL: the exchanges' API bases (a local stand-in in tests). */
  exchangeUrls: Readonly<Record<Exchange, string>>;
  /** PRICES_EXCHANGE_TIMEOUT_MS (default 10,000): how long one exchange request may take; a round waits for it at most this long. */
  exchangeTimeoutMs: number;
  /** PRICES_DOMAIN: a host of its own for `{prices_url}`; null: the site's origin only (docs/hosts-and-paths.md#prices-url). */
  domain: string | null;
  /** How old an observation of each source kind may be and still count (docs/prices.md#aggregation). */
  maxAgeMs: { 'amm-v2': number; 'amm-v3': number; oracle: number; exchange: number };
  /** PRICES_OUTLIER_MADS (default 3): how many scaled median absolute deviations from the median make an outlier. */
  madThreshold: number;
}

const seconds = wholeNumber({ min: 1, max: 9_999_999, message: 'must be a whole number of seconds from 1' }).transform((value) => value * 1000);
const milliseconds = wholeNumber({ min: 1, max: 9_999_999, message: 'must be a whole number of milliseconds from 1' });
const exchanges = z
  .string()
  .trim()
  .transform((text, ctx) => {
    const names = text === 'none' ? [] : text.split(',').map((name) => name.trim());
    const unknown = names.filter((name) => !(EXCHANGES as readonly string[]).includes(name));
    if (unknown.length) ctx.addIssue({ code: 'custom', message: `must list exchanges among ${EXCHANGES.join(', ')}, or be none (not ${unknown.join(', ')})` });
    return new Set(names as Exchange[]);
  });
const baseUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).transform((url) => url.replace(/\/+$/, ''));
const networkId = z
  .string()
  .trim()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be a network id such as ethereum-sepolia');
const hostname = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/, 'must be a domain name such as prices.example.com');
const multiple = decimalNumber({ min: 1, message: 'must be a number of at least 1' });

const read = <T>(env: Env, name: string, schema: z.ZodType<T, string>, fallback: T): T => readConfigVariable(env, 'prices', name, schema, fallback);

export function readPricesConfig(env: Env, mode: { local: boolean }): PricesConfig {
  return {
    sampleMs: read(env, 'PRICES_SAMPLE_SECONDS', seconds, 300_000),
    inServer: read(env, 'PRICES_IN_SERVER', z.enum(['on', 'off'], { error: 'must be on or off' }), 'on') === 'on',
    worldNetwork: read(env, 'PRICES_WORLD_NETWORK', networkId, mode.local ? 'ethereum-sepolia' : null),
    exchanges: read(env, 'PRICES_EXCHANGES', exchanges, new Set<Exchange>(mode.local ? [] : EXCHANGES)),
    exchangeUrls: {
      coinbase: read(env, 'PRICES_COINBASE_URL', baseUrl, 'https://api.exchange.coinbase.com'),
      kraken: read(env, 'PRICES_KRAKEN_URL', baseUrl, 'https://api.kraken.com'),
    },
    exchangeTimeoutMs: read(env, 'PRICES_EXCHANGE_TIMEOUT_MS', milliseconds, 10_000),
    domain: read(env, 'PRICES_DOMAIN', hostname, null),
    // Pools and exchanges move every block or second: two sampling periods of silence is news. Feeds
    // update on deviation or a heartbeat of up to a day.
    maxAgeMs: {
      'amm-v2': read(env, 'PRICES_MAX_AGE_AMM_SECONDS', seconds, 600_000),
      'amm-v3': read(env, 'PRICES_MAX_AGE_AMM_SECONDS', seconds, 600_000),
      oracle: read(env, 'PRICES_MAX_AGE_ORACLE_SECONDS', seconds, 25 * 3600_000),
      exchange: read(env, 'PRICES_MAX_AGE_EXCHANGE_SECONDS', seconds, 600_000),
    },
    madThreshold: read(env, 'PRICES_OUTLIER_MADS', multiple, 3),
  };
}
