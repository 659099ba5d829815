import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Kysely } from 'kysely';
import { getAddress, keccak256, toHex, type Address } from 'viem';
import type { DatabaseSchema } from '../../src/db/schema.ts';
import type { Observation } from '../../src/prices/observation.ts';
import { ok } from '../../src/prices/result.ts';
import type { SampleResult } from '../../src/prices/sample.ts';
import { PRICE_INTERVALS, recordSample } from '../../src/prices/store.ts';

// The prices benchmark's data: a token list of its own (content/tokens/ in a scratch content folder,
// each token priced by one feed on a network, so that the plan knows its symbol) and a price history
// written through recordSample as the sampler writes it. These are synthetic benchmark rows, not
// prices: each value is a smooth curve of the time, its feed an address nobody deployed.

const projectRoot = resolve(import.meta.dirname, '../..');
const NETWORK = 'ethereum-sepolia';
const DAY = PRICE_INTERVALS['1d'];

export interface BenchToken {
  symbol: string;
  address: Address;
  feed: Address;
  /** The level its synthetic values move around, in dollars. */
  level: number;
}

const madeUpAddress = (seed: string): Address => getAddress(keccak256(toHex(seed)).slice(0, 42));

/** `count` tokens, TOK01…, at levels from cents to thousands of dollars. */
export function benchTokens(count: number): BenchToken[] {
  return Array.from({ length: count }, (_, i) => ({
    symbol: `TOK${String(i + 1).padStart(2, '0')}`,
    address: madeUpAddress(`prices bench token ${i}`),
    feed: madeUpAddress(`prices bench feed ${i}`),
    level: 10 ** ((i % 6) - 2) * (1 + i / 7),
  }));
}

/** A content folder with the project's networks and collections and a token list of `tokens`; returns its path. */
export async function writeTokenContent(dir: string, tokens: readonly BenchToken[]): Promise<string> {
  const content = join(dir, 'content');
  for (const folder of ['networks', 'collections']) await cp(join(projectRoot, 'content', folder), join(content, folder), { recursive: true });
  await mkdir(join(content, 'tokens'));
  for (const token of tokens)
    await writeFile(
      join(content, 'tokens', `${token.symbol.toLowerCase()}.yaml`),
      [
        '# A synthetic token of the prices benchmark: its address and feed are made up, and never read.',
        `symbol: ${token.symbol}`,
        `name: Benchmark token ${token.symbol.slice(3)}`,
        'decimals: 18',
        // Any logo of public/tokens/ will do: the list's loader checks that the file exists.
        'logo: /tokens/forge.svg',
        'addresses:',
        `  ${NETWORK}: '${token.address}'`,
        'prices:',
        '  feeds:',
        `    - { network: ${NETWORK}, address: '${token.feed}' }`,
        '',
      ].join('\n'),
    );
  return content;
}

/** A synthetic value at `at`: the token's level, a weekly swing of ±5% and a daily one of ±1%, to 12 significant digits. */
function syntheticValue(token: BenchToken, at: number): string {
  const phase = token.level;
  const value = token.level * (1 + 0.05 * Math.sin((2 * Math.PI * at) / (7 * DAY) + phase) + 0.01 * Math.sin((2 * Math.PI * at) / DAY + phase));
  return String(Number(value.toPrecision(12)));
}

/** One sampling round of every token at `sampledAt`, as the sampler records it: each feed's observation and the aggregate it makes alone. */
export async function recordSyntheticRound(db: Kysely<DatabaseSchema>, tokens: readonly BenchToken[], sampledAt: number): Promise<void> {
  const sample: SampleResult = { observations: [], skipped: [], prices: new Map() };
  for (const token of tokens) {
    // The feed's round is half a minute older than the sampling.
    const observation: Observation = {
      source: { kind: 'oracle', id: `oracle:${NETWORK}:${token.feed.toLowerCase()}` },
      symbol: token.symbol,
      currency: 'usd',
      value: syntheticValue(token, sampledAt),
      observedAt: sampledAt - 30_000,
    };
    sample.observations.push(observation);
    sample.prices.set(token.symbol, ok({ value: observation.value, observedAt: observation.observedAt, used: [observation], dropped: [] }));
  }
  await recordSample(db, sample, sampledAt);
}

export interface HistoryShape {
  /** Days of history in all: a round an hour until the five-minute ones. */
  days: number;
  /** The last days, sampled every 5 minutes (the sampler's default period). */
  fiveMinuteDays: number;
}

/** Rounds up to `end`: hourly over `days`, then every 5 minutes over the last `fiveMinuteDays`. Returns how many were recorded. */
export async function recordSyntheticHistory(
  db: Kysely<DatabaseSchema>,
  tokens: readonly BenchToken[],
  shape: HistoryShape,
  end: number,
  log: (line: string) => void,
): Promise<number> {
  const fiveMinutesFrom = end - shape.fiveMinuteDays * DAY;
  const times: number[] = [];
  for (let at = end - shape.days * DAY; at < fiveMinutesFrom; at += PRICE_INTERVALS['1h']) times.push(at);
  for (let at = fiveMinutesFrom; at <= end; at += PRICE_INTERVALS['5m']) times.push(at);
  for (const [index, at] of times.entries()) {
    await recordSyntheticRound(db, tokens, at);
    if ((index + 1) % 2000 === 0) log(`  ${index + 1} of ${times.length} rounds recorded`);
  }
  return times.length;
}
