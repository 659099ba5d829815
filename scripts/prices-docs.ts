// `npm run docs:prices`: writes the page on how prices are computed, in every locale
// (content/<locale>/overviews/price-method.md), from the prices configuration's defaults, the token
// list's sources and the local world's price layer (docs/prices.md#sources: the method is documented on the
// site). The files are committed content; a test renders them again and fails when they differ.
import { resolve } from 'node:path';
import { formatUnits, getAddress, type Address } from 'viem';
import { FEED_HEARTBEAT_SECONDS } from '../src/chain/world/feed-heartbeat.ts';
import { WORLD_FEEDS, WORLD_POOLS, WORLD_PRICE_SOURCES } from '../src/chain/world/price-layer.ts';
import { buildEnvironment } from '../src/config/build-environment.ts';
import { type PricesConfig, readPricesConfig } from '../src/config/prices.ts';
import { formatDecimal, ONE } from '../src/prices/decimal.ts';
import type { SourceKind } from '../src/prices/observation.ts';
import { planPrices, type PricedEntry } from '../src/prices/plan.ts';
import type { ExchangeSourceSpec } from '../src/token-list/price-sources.ts';
import { PRICE_INTERVALS, type PriceInterval } from '../src/prices/store.ts';
import { uniswapV2Quote } from '../src/prices/uniswap-v2.ts';
import { type Locale, localeLang, locales } from '../src/site/locales.ts';
import { formatUi, ui } from '../src/site/ui.ts';
import { pageUrl } from '../src/site/urls.ts';
import { loadTokenList } from '../src/token-list/token-list.ts';
import { code, generatedPage, markdownTable, markdownText, writeGeneratedFiles } from './generated-markdown.ts';

const priceMethodSlug = 'price-method';

/** A locale's page, relative to its content folder. */
export function priceMethodPath(locale: Locale): string {
  return `${locale}/overviews/${priceMethodSlug}.md`;
}

const DAY_MS = PRICE_INTERVALS['1d'];

/** The longest range the historical endpoint answers at each interval (docs/prices.md#historical-prices; src/prices/api/operations.ts keeps them unexported). */
export const HISTORY_RANGE_MS: Readonly<Record<PriceInterval, number>> = { '5m': 7 * DAY_MS, '1h': 30 * DAY_MS, '1d': 366 * DAY_MS };

/** aggregatePrice's default floor of the outlier scale, as a fraction of the median (src/prices/aggregate.ts keeps it unexported). */
export const RELATIVE_FLOOR = 0.001;

/** The settings the page names, as .env.example lists them. */
export const PRICE_SETTINGS = {
  maxAges: ['PRICES_MAX_AGE_AMM_SECONDS', 'PRICES_MAX_AGE_ORACLE_SECONDS', 'PRICES_MAX_AGE_EXCHANGE_SECONDS'],
  outlierMads: 'PRICES_OUTLIER_MADS',
  sampleSeconds: 'PRICES_SAMPLE_SECONDS',
  worldNetwork: 'PRICES_WORLD_NETWORK',
  exchanges: 'PRICES_EXCHANGES',
} as const;

const exchangeNames: Record<ExchangeSourceSpec['exchange'], string> = { coinbase: 'Coinbase Exchange', kraken: 'Kraken', binance: 'Binance' };

/** Where a source is, as the table shows it. */
export type PriceSourceWhere =
  | { type: 'world-pool'; pool: string; token: string; quote: string; seeds: { amount: string; quoteAmount: string; price: string } }
  | { type: 'world-feed'; feed: string; pair: string; answer: string; decimals: number }
  | { type: 'pair'; network: string; token: string; quote: string }
  | { type: 'feed'; network: string }
  | { type: 'exchange'; exchange: ExchangeSourceSpec['exchange']; market: string };

/** One row of the sources table: a source of one token. */
export interface PriceSourceRow {
  symbol: string;
  kind: SourceKind;
  where: PriceSourceWhere;
  /** The contract read; null for an exchange. */
  address: Address | null;
}

/** What the page says: the configuration's defaults, the world's feed heartbeat and the token list's sources. */
export interface PriceMethodFacts {
  /** readPricesConfig's defaults outside local mode. */
  config: PricesConfig;
  /** Its defaults in local mode (`npm start`), where the world is read and exchanges are not. */
  localConfig: PricesConfig;
  heartbeatSeconds: number;
  rows: readonly PriceSourceRow[];
}

const marketOf = (spec: ExchangeSourceSpec) => (spec.exchange === 'coinbase' ? spec.product : spec.exchange === 'kraken' ? spec.pair : spec.symbol);

/**
 * The sources of every priced entry, in list order, as the sampler's plan resolves them: the plan is
 * made with the world on `worldNetwork` and every exchange, so every source the list names is a row.
 */
export function priceSourceRows(entries: readonly PricedEntry[], worldNetwork: string): PriceSourceRow[] {
  const plan = planPrices(entries, {
    worldNetwork,
    world: WORLD_PRICE_SOURCES,
    exchanges: new Set(Object.keys(exchangeNames) as ExchangeSourceSpec['exchange'][]),
  });
  const symbolOfWorld = new Map(entries.flatMap((entry) => (entry.world ? [[entry.world, entry.symbol] as const] : [])));
  const chainSources = [...plan.chain.values()].flat();
  const rows: PriceSourceRow[] = [];
  for (const entry of entries) {
    for (const source of chainSources) {
      if (source.symbol !== entry.symbol) continue;
      const onWorld = source.network === worldNetwork;
      if (source.kind === 'amm-v2') {
        const pool = onWorld ? WORLD_POOLS.find((candidate) => candidate.address === source.pair) : undefined;
        if (!pool) {
          rows.push({
            symbol: entry.symbol,
            kind: source.kind,
            where: { type: 'pair', network: source.network, token: entry.symbol, quote: source.quoteSymbol },
            address: source.pair,
          });
          continue;
        }
        const [priced, quoted] = source.pricedIsToken0 ? [pool.token0, pool.token1] : [pool.token1, pool.token0];
        const [pricedSeed, quotedSeed] = source.pricedIsToken0 ? [pool.seed0, pool.seed1] : [pool.seed1, pool.seed0];
        const [pricedDecimals, quotedDecimals] = source.pricedIsToken0
          ? [source.decimals.decimals0, source.decimals.decimals1]
          : [source.decimals.decimals1, source.decimals.decimals0];
        const quote = uniswapV2Quote({ reserve0: pool.seed0, reserve1: pool.seed1 }, source.decimals);
        if (!quote.ok) throw new Error(`pool ${pool.id} cannot be priced at its seeds: ${quote.error.message}`);
        const seeds = {
          amount: formatUnits(pricedSeed, pricedDecimals),
          quoteAmount: formatUnits(quotedSeed, quotedDecimals),
          price: formatDecimal(source.pricedIsToken0 ? quote.value.token0InToken1 : quote.value.token1InToken0),
        };
        const where = { type: 'world-pool', pool: pool.id, token: symbolOfWorld.get(priced)!, quote: symbolOfWorld.get(quoted)!, seeds } as const;
        rows.push({ symbol: entry.symbol, kind: source.kind, where, address: pool.address });
      } else {
        const feed = onWorld ? WORLD_FEEDS.find((candidate) => candidate.address === source.feed) : undefined;
        const where: PriceSourceWhere = feed
          ? { type: 'world-feed', feed: feed.id, pair: feed.description, answer: formatUnits(feed.answer, feed.decimals), decimals: feed.decimals }
          : { type: 'feed', network: source.network };
        rows.push({ symbol: entry.symbol, kind: source.kind, where, address: source.feed });
      }
    }
    for (const source of plan.exchanges) {
      if (source.symbol !== entry.symbol) continue;
      rows.push({
        symbol: entry.symbol,
        kind: 'exchange',
        where: { type: 'exchange', exchange: source.spec.exchange, market: marketOf(source.spec) },
        address: null,
      });
    }
  }
  return rows;
}

/** The facts of the committed page: the defaults, the heartbeat, and the sources of content/tokens/ under `root`. */
export async function loadPriceMethodFacts(root: string): Promise<PriceMethodFacts> {
  const localConfig = readPricesConfig({}, { local: true });
  const list = await loadTokenList(root, { siteOrigin: buildEnvironment({}).siteOrigin });
  return {
    config: readPricesConfig({}, { local: false }),
    localConfig,
    heartbeatSeconds: FEED_HEARTBEAT_SECONDS,
    rows: priceSourceRows(list.entries, localConfig.worldNetwork!),
  };
}

// Node 24 has Intl.DurationFormat; TypeScript 5.9's lib does not describe it yet.
type DurationUnit = 'days' | 'hours' | 'minutes' | 'seconds';
const { DurationFormat } = Intl as unknown as {
  DurationFormat: new (locale: string, options: { style: 'long' }) => { format(duration: Partial<Record<DurationUnit, number>>): string };
};
const durationUnits: ReadonlyArray<[DurationUnit, number]> = [
  ['days', DAY_MS],
  ['hours', 3_600_000],
  ['minutes', 60_000],
  ['seconds', 1000],
];

/** A duration in the largest unit it is a whole number of, in the locale's words: 90,000 s is "25 hours". */
function formatDuration(ms: number, locale: Locale): string {
  const [unit, size] = durationUnits.find(([, size]) => ms % size === 0) ?? durationUnits.at(-1)!;
  return new DurationFormat(localeLang[locale], { style: 'long' }).format({ [unit]: ms / size });
}

/** A decimal string (any precision) or a number in the locale's digits. */
const formatNumber = (value: string | number, locale: Locale) =>
  new Intl.NumberFormat(localeLang[locale], { maximumFractionDigits: 18 }).format(value as Parameters<Intl.NumberFormat['format']>[0]);

const formatList = (items: readonly string[], locale: Locale) => new Intl.ListFormat(localeLang[locale], { type: 'conjunction' }).format(items);

/** The page of `locale`. */
export function renderPriceMethod(locale: Locale, facts: PriceMethodFacts): string {
  const strings = ui[locale].priceMethod;
  const { config, localConfig } = facts;
  const number = (value: string | number) => formatNumber(value, locale);
  const duration = (ms: number) => formatDuration(ms, locale);
  const link = (text: string, url: string) => `[${markdownText(text)}](${url})`;

  const kinds = Object.keys(config.maxAgeMs) as SourceKind[];
  const freshness = markdownTable(
    [strings.kindColumn, strings.readsColumn, strings.freshColumn],
    ['-', '-', '-'],
    kinds.map((kind) => [strings.kinds[kind], markdownText(strings.reads[kind]), duration(config.maxAgeMs[kind])]),
  );
  const intervals = Object.keys(PRICE_INTERVALS) as PriceInterval[];
  const history = markdownTable(
    [strings.intervalColumn, strings.boundaryColumn, strings.rangeColumn],
    ['-', '-', '-'],
    intervals.map((interval) => [code(interval), duration(PRICE_INTERVALS[interval]), duration(HISTORY_RANGE_MS[interval])]),
  );

  const sourceCell = (where: PriceSourceWhere): string => {
    if (where.type === 'world-pool') return formatUi(strings.worldPool, { pool: code(where.pool), token: where.token, quote: where.quote });
    if (where.type === 'world-feed') return formatUi(strings.worldFeed, { feed: code(where.feed), pair: markdownText(where.pair) });
    if (where.type === 'pair') return formatUi(strings.networkPair, { network: code(where.network), token: where.token, quote: where.quote });
    if (where.type === 'feed') return formatUi(strings.networkFeed, { network: code(where.network) });
    return formatUi(strings.exchangeMarket, { exchange: exchangeNames[where.exchange], market: code(where.market) });
  };
  const seededCell = (where: PriceSourceWhere): string => {
    if (where.type === 'world-pool') {
      const { amount, quoteAmount, price } = where.seeds;
      return formatUi(strings.poolSeeds, {
        amount: number(amount),
        token: where.token,
        quoteAmount: number(quoteAmount),
        quote: where.quote,
        price: number(price),
      });
    }
    if (where.type === 'world-feed') return formatUi(strings.feedSeed, { answer: number(where.answer), decimals: where.decimals });
    return '—';
  };
  const sources = markdownTable(
    [strings.tokenColumn, strings.kindColumn, strings.sourceColumn, strings.addressColumn, strings.seededColumn],
    ['-', '-', '-', '-', '-'],
    facts.rows.map((row) => [
      markdownText(row.symbol),
      strings.kinds[row.kind],
      sourceCell(row.where),
      row.address ? code(getAddress(row.address)) : '—',
      seededCell(row.where),
    ]),
  );
  // The conversion at work: best a pool quoted in a token that is itself priced by a pool.
  const pools = facts.rows.flatMap((row) => (row.where.type === 'world-pool' || row.where.type === 'pair' ? [row.where] : []));
  const chained = pools.find((pool) => pools.some((other) => other.token === pool.quote)) ?? pools[0];
  const exchangeList = (exchanges: ReadonlySet<ExchangeSourceSpec['exchange']>) =>
    exchanges.size
      ? formatList(
          [...exchanges].map((exchange) => exchangeNames[exchange]),
          locale,
        )
      : strings.noExchanges;
  const outlierRule = code('|x − m| > k · max(1.4826 · MAD, f · m)');
  const band = new Intl.NumberFormat(localeLang[locale], { style: 'percent', maximumFractionDigits: 4 }).format(config.madThreshold * RELATIVE_FLOOR);

  // After the local world's guide.
  return generatedPage({ title: strings.title, description: strings.description, order: 10 }, [
    formatUi(strings.intro, { guide: link(strings.apiGuide, pageUrl('en', 'overviews', 'token-prices-api')) }),
    `## ${strings.whatHeading}`,
    formatUi(strings.what, { decimals: ONE.toString().length - 1, example: code('"0.25"'), lastUpdatedAt: code('lastUpdatedAt') }),
    `## ${strings.sourcesHeading}`,
    formatUi(strings.sourcesIntro, { tokenList: code('content/tokens/'), prices: code('prices:') }),
    freshness,
    formatUi(strings.freshSettings, { settings: formatList(PRICE_SETTINGS.maxAges.map(code), locale) }),
    `## ${strings.outliersHeading}`,
    formatUi(strings.outliers, { rule: outlierRule, k: number(config.madThreshold), floor: number(RELATIVE_FLOOR) }),
    formatUi(strings.outliersWhy, { band, setting: code(PRICE_SETTINGS.outlierMads) }),
    `## ${strings.medianHeading}`,
    strings.median,
    strings.medianWhen,
    `## ${strings.conversionHeading}`,
    strings.conversion,
    ...(chained ? [formatUi(strings.conversionExample, { token: chained.token, quote: chained.quote })] : []),
    `## ${strings.samplingHeading}`,
    formatUi(strings.sampling, { period: duration(config.sampleMs), setting: code(PRICE_SETTINGS.sampleSeconds), worker: code('npm run worker -- prices') }),
    formatUi(strings.history, { start: code('startTime'), end: code('endTime') }),
    history,
    formatUi(strings.backfill, { setting: code(PRICE_SETTINGS.exchanges) }),
    `## ${strings.noFreshHeading}`,
    formatUi(strings.noFresh, { empty: code('"prices": []'), error: code('error') }),
    `## ${strings.tableHeading}`,
    formatUi(strings.tableIntro, {
      tokens: code('content/tokens/'),
      world: link(ui[locale].worldDocs.title, pageUrl(locale, 'overviews', 'local-world')),
      network: code(localConfig.worldNetwork ?? '—'),
      start: code('npm start'),
      setting: code(PRICE_SETTINGS.worldNetwork),
    }),
    formatUi(strings.tableExchanges, {
      setting: code(PRICE_SETTINGS.exchanges),
      local: exchangeList(localConfig.exchanges),
      other: exchangeList(config.exchanges),
    }),
    sources,
    formatUi(strings.tableOutro, { heartbeat: duration(facts.heartbeatSeconds * 1000) }),
  ]);
}

/** Writes every locale's page under `root`'s content/; returns the files written, relative to `root`. */
export async function writePriceMethodDocs(root: string): Promise<string[]> {
  const facts = await loadPriceMethodFacts(root);
  return writeGeneratedFiles(
    root,
    locales.map((locale) => ({ path: `content/${priceMethodPath(locale)}`, text: renderPriceMethod(locale, facts) })),
  );
}

if (import.meta.main) {
  const written = await writePriceMethodDocs(resolve(import.meta.dirname, '..'));
  console.log(`Wrote the price method page from the prices defaults and the token list:\n${written.map((file) => `  ${file}`).join('\n')}`);
}
