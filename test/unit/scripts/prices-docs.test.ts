import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { getAddress } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  HISTORY_RANGE_MS,
  loadPriceMethodFacts,
  PRICE_SETTINGS,
  type PriceMethodFacts,
  priceMethodPath,
  priceSourceRows,
  RELATIVE_FLOOR,
  renderPriceMethod,
} from '../../../scripts/prices-docs.ts';
import { WORLD_FEEDS, WORLD_POOLS, WORLD_PRICE_SOURCES } from '../../../src/chain/world/price-layer.ts';
import { readPricesConfig } from '../../../src/config/prices.ts';
import { aggregatePrice } from '../../../src/prices/aggregate.ts';
import { CrucibleError } from '../../../src/errors/crucible-error.ts';
import { priceOperations } from '../../../src/prices/api/operations.ts';
import { HistoricalBody } from '../../../src/prices/api/schemas.ts';
import { makeObservation } from '../../../src/prices/observation.ts';
import { parseDecimal } from '../../../src/prices/decimal.ts';
import { planPrices, type PricedEntry } from '../../../src/prices/plan.ts';
import { PRICE_INTERVALS, type PriceInterval } from '../../../src/prices/store.ts';
import { splitFrontmatter } from '../../../src/site/read-content.ts';
import { locales } from '../../../src/site/locales.ts';
import { renderPageBody } from '../../../src/site/markdown.ts';
import { pageFrontmatter } from '../../../src/site/schema.ts';
import { ui } from '../../../src/site/ui.ts';
import { loadTokenList } from '../../../src/token-list/token-list.ts';
import { projectRoot } from '../../support/build.ts';

// The page on how prices are computed is generated from the prices defaults, the token list and the
// local world's price layer (docs/prices.md#sources), and committed as content, one page per locale.

let facts: PriceMethodFacts;
let english: string;
beforeAll(async () => {
  facts = await loadPriceMethodFacts(projectRoot);
  english = renderPriceMethod('en', facts);
});

/** The table rows of a page that start with `cell`. */
const rowsOf = (page: string, cell: string) => page.split('\n').filter((line) => line.startsWith(`| ${cell} |`));

describe('renderPriceMethod', () => {
  it('writes valid frontmatter in the locale’s words, after the local world’s guide', () => {
    expect(pageFrontmatter.parse(splitFrontmatter(english).data)).toMatchObject({ title: 'How prices are computed', order: 10 });
    for (const locale of locales) {
      expect(pageFrontmatter.parse(splitFrontmatter(renderPriceMethod(locale, facts)).data)).toMatchObject({ title: ui[locale].priceMethod.title });
    }
  });

  it('gives each source kind the freshness limit of the configuration’s defaults', () => {
    expect(facts.config).toEqual(readPricesConfig({}, { local: false }));
    expect(english).toContain('| Source kind | What is read | Counts for |');
    expect(rowsOf(english, 'Uniswap V2 pool')[0]).toMatch(/ \| 10 minutes \|$/);
    expect(rowsOf(english, 'Oracle feed')[0]).toMatch(/ \| 25 hours \|$/);
    expect(rowsOf(english, 'Exchange')[0]).toMatch(/ \| 10 minutes \|$/);
    expect(renderPriceMethod('ja', facts)).toContain('| オラクルフィード |');
  });

  it('states the outlier rule with k from the defaults and the floor aggregatePrice applies', () => {
    expect(english).toContain('when `|x − m| > k · max(1.4826 · MAD, f · m)`, with k = 3 and f = 0.001.');
    expect(english).toContain('quotes within 0.3% of the median');
    // MAD = 0 here, so the scale is the floor: a quote f away from the median (k = 1) is kept, one a little further is dropped.
    const aggregate = (last: string) => {
      const values = ['100', '100', '100', last];
      const observations = values.map((value, i) => makeObservation({ kind: 'exchange', id: `x${i}` }, 'T', parseDecimal(value)!, 0));
      const result = aggregatePrice(observations, { now: 0, maxAgeMs: facts.config.maxAgeMs, madThreshold: 1 });
      return result.ok ? result.value.dropped.map((drop) => drop.reason) : result.error.code;
    };
    expect(aggregate(String(100 + 100 * RELATIVE_FLOOR))).toEqual([]);
    expect(aggregate(String(100 + 100 * RELATIVE_FLOOR + 1e-9))).toEqual(['outlier']);
  });

  it('says the sampling period and the history intervals with the range each answers', () => {
    expect(english).toContain('once per period, every 5 minutes by default (`PRICES_SAMPLE_SECONDS`)');
    expect(english).toContain('| `5m` | 5 minutes | 7 days |\n| `1h` | 1 hour | 30 days |\n| `1d` | 1 day | 366 days |');
  });

  it('says a token with no fresh source gets an item error, never a stale value', () => {
    expect(english).toContain('has `"prices": []` and an `error` whose message names each source');
    expect(english).toContain('A stale value is never answered');
  });

  it('follows the facts it is given', () => {
    const page = renderPriceMethod('en', {
      ...facts,
      config: { ...facts.config, madThreshold: 5, maxAgeMs: { ...facts.config.maxAgeMs, oracle: 2 * 3600_000 }, sampleMs: 60_000 },
      rows: [{ symbol: 'A|B', kind: 'exchange', where: { type: 'exchange', exchange: 'binance', market: 'ABUSDT' }, address: null }],
    });
    expect(page).toContain('with k = 5 and f = 0.001');
    expect(page).toContain('within 0.5% of the median');
    expect(rowsOf(page, 'Oracle feed')[0]).toMatch(/ \| 2 hours \|$/);
    expect(page).toContain('every 1 minute by default');
    expect(page).toContain('| A\\|B | Exchange | Binance, market `ABUSDT` | — | — |');
    expect(page).not.toContain('In the table below');
  });
});

describe('the sources table', () => {
  it('lists every priced token of the committed list, with a row per source', async () => {
    const list = await loadTokenList(projectRoot, { siteOrigin: 'http://localhost:4321' });
    const priced = list.entries.filter((entry) => entry.prices);
    expect(priced.length).toBeGreaterThan(0);
    for (const entry of priced) {
      const spec = entry.prices!;
      const count = (spec.world?.pools.length ?? 0) + (spec.world?.feeds.length ?? 0) + spec.uniswapV2.length + spec.feeds.length + spec.exchanges.length;
      expect(rowsOf(english, entry.symbol), entry.symbol).toHaveLength(count);
    }
  });

  it('gives world pools and feeds their address and what they are seeded with', () => {
    const addressOf = (id: string) => getAddress([...WORLD_POOLS, ...WORLD_FEEDS].find((contract) => contract.id === id)!.address);
    expect(rowsOf(english, 'SLAG')).toEqual([
      `| SLAG | Uniswap V2 pool | World pool \`slag-forge\`: SLAG in FORGE | \`${addressOf('slag-forge')}\` | 100,000 SLAG and 10,000 FORGE: 0.1 FORGE per SLAG |`,
    ]);
    expect(rowsOf(english, 'ETH')).toEqual([
      `| ETH | Uniswap V2 pool | World pool \`weth-cusd\`: WETH in cUSD | \`${addressOf('weth-cusd')}\` | 100 WETH and 300,000 cUSD: 3,000 cUSD per WETH |`,
      `| ETH | Oracle feed | World feed \`eth-usd\` (ETH / USD) | \`${addressOf('eth-usd')}\` | First answer 3,000, with 8 decimals |`,
      '| ETH | Exchange | Coinbase Exchange, market `ETH-USD` | — | — |',
      '| ETH | Exchange | Kraken, market `XETHZUSD` | — | — |',
    ]);
    expect(renderPriceMethod('es', facts)).toContain('| 100.000 SLAG y 10.000 FORGE: 0,1 FORGE por SLAG |');
    expect(english).toContain('In the table below, SLAG is priced in FORGE, which its own sources price in dollars.');
  });

  it('resolves sources as the sampler’s plan does, on real networks too', () => {
    const pair = '0x0000000000000000000000000000000000000a11';
    const feed = '0x0000000000000000000000000000000000000fee';
    const entry = (symbol: string, address: string, prices: PricedEntry['prices']): PricedEntry => ({
      symbol,
      decimals: 18,
      addresses: { 'base-sepolia': address },
      prices,
      sourcePath: `content/tokens/${symbol}.yaml`,
    });
    const rows = priceSourceRows(
      [
        entry('USDX', '0x00000000000000000000000000000000000000b0', { uniswapV2: [], feeds: [{ network: 'base-sepolia', address: feed }], exchanges: [] }),
        entry('TKN', '0x00000000000000000000000000000000000000a0', { uniswapV2: [{ network: 'base-sepolia', pair, quote: 'USDX' }], feeds: [], exchanges: [] }),
      ],
      'ethereum-sepolia',
    );
    expect(rows).toEqual([
      { symbol: 'USDX', kind: 'oracle', where: { type: 'feed', network: 'base-sepolia' }, address: feed },
      { symbol: 'TKN', kind: 'amm-v2', where: { type: 'pair', network: 'base-sepolia', token: 'TKN', quote: 'USDX' }, address: pair },
    ]);
    const page = renderPriceMethod('en', { ...facts, rows });
    expect(page).toContain(`| TKN | Uniswap V2 pool | Uniswap V2 pair on \`base-sepolia\`: TKN in USDX | \`${getAddress(pair)}\` | — |`);
    expect(page).toContain('In the table below, TKN is priced in USDX');
  });

  it('writes every address checksummed', () => {
    const addresses = [...english.matchAll(/0x[0-9a-fA-F]{40}/g)].map(([address]) => address);
    expect(addresses.length).toBeGreaterThan(WORLD_PRICE_SOURCES.feeds.length);
    for (const address of addresses) expect(address).toBe(getAddress(address));
  });
});

describe('the facts the page states beside the code', () => {
  it('are the ranges the historical endpoint answers: the cap is answered, a second more is refused', async () => {
    const list = await loadTokenList(projectRoot, { siteOrigin: 'http://localhost:4321' });
    const plan = planPrices(list.entries, { worldNetwork: 'ethereum-sepolia', world: WORLD_PRICE_SOURCES, exchanges: new Set() });
    // Admission is the node gateway's (tested with it); an unknown symbol is answered before the database is read.
    const api = {
      db: undefined as never,
      plan,
      localWorld: () => true,
      networkIdOf: (name: string) => (name === 'ethereum-sepolia' ? name : null),
      staleAfterMs: 1,
    };
    const historical = priceOperations.find((operation) => operation.operationId === 'getHistoricalTokenPrices')!;
    const statusFor = async (interval: PriceInterval, ms: number) => {
      const body = HistoricalBody.parse({ symbol: 'NOT-LISTED', startTime: 0, endTime: ms / 1000, interval });
      return historical.handler({ query: {}, body: body as never, network: null }, api).then(
        () => 200,
        (error: unknown) => (error instanceof CrucibleError ? error.status : 500),
      );
    };
    for (const interval of Object.keys(PRICE_INTERVALS) as PriceInterval[]) {
      expect(await statusFor(interval, HISTORY_RANGE_MS[interval]), interval).toBe(404);
      expect(await statusFor(interval, HISTORY_RANGE_MS[interval] + 1000), interval).toBe(400);
    }
  });

  it('name settings .env.example lists', async () => {
    const example = await readFile(join(projectRoot, '.env.example'), 'utf8');
    for (const setting of Object.values(PRICE_SETTINGS).flat()) expect(example, setting).toMatch(new RegExp(`^#? ?${setting}=`, 'm'));
  });
});

describe('the committed pages', () => {
  it('are what npm run docs:prices writes now, in every locale', async () => {
    for (const locale of locales) {
      const file = join('content', priceMethodPath(locale));
      const committed = await readFile(join(projectRoot, file), 'utf8').catch(() => '');
      expect(committed, `${file} differs from the prices defaults and the token list: run npm run docs:prices`).toBe(renderPriceMethod(locale, facts));
    }
  });

  it('render as pages whose links lead to pages that exist, and the prices API guide links the English one', async () => {
    for (const locale of locales) {
      const { html } = await renderPageBody(join(projectRoot, 'content', priceMethodPath(locale)));
      const links = [...html!.matchAll(/href="([^"]+)"/g)].map(([, href]) => href!);
      expect(links).toEqual(['/overviews/token-prices-api', locale === 'en' ? '/overviews/local-world' : `/${locale}/overviews/local-world`]);
      for (const link of links) await access(join(projectRoot, 'content', link.startsWith('/overviews/') ? `en${link}.md` : `${link.slice(1)}.md`));
    }
    const guide = await readFile(join(projectRoot, 'content/en/overviews/token-prices-api.md'), 'utf8');
    expect(guide).toContain('](/overviews/price-method)');
  });
});
