import { decodeFunctionResult, encodeFunctionResult } from 'viem';
import { describe, expect, it } from 'vitest';
import { formatDecimal } from '../../../src/prices/decimal.ts';
import { aggregatorV3Abi, type RoundData, readOracleFeed } from '../../../src/prices/oracle-feed.ts';

// An ETH / USD feed's round as latestRoundData() returns it: 8 decimals, answer 3000.12345678 USD.
const round: RoundData = {
  roundId: 110680464442257320164n,
  answer: 300012345678n,
  startedAt: 1_700_000_000n,
  updatedAt: 1_700_000_011n,
  answeredInRound: 110680464442257320164n,
};

describe('readOracleFeed', () => {
  it('reads answer / 10^decimals at updatedAt', () => {
    const reading = readOracleFeed(round, 8);
    if (!reading.ok) throw new Error(reading.error.message);
    expect(formatDecimal(reading.value.value)).toBe('3000.12345678');
    expect(reading.value.observedAt).toBe(1_700_000_011_000);
    const eighteen = readOracleFeed({ ...round, answer: 1n }, 18);
    expect(eighteen.ok && formatDecimal(eighteen.value.value)).toBe('0.000000000000000001');
    const whole = readOracleFeed({ ...round, answer: 42n }, 0);
    expect(whole.ok && formatDecimal(whole.value.value)).toBe('42');
  });

  it("reads a feed's encoded latestRoundData and decimals answers, decoded with the feed ABI", () => {
    const latest = encodeFunctionResult({
      abi: aggregatorV3Abi,
      functionName: 'latestRoundData',
      result: [round.roundId, round.answer, round.startedAt, round.updatedAt, round.answeredInRound],
    });
    const [roundId, answer, startedAt, updatedAt, answeredInRound] = decodeFunctionResult({
      abi: aggregatorV3Abi,
      functionName: 'latestRoundData',
      data: latest,
    });
    const decimals = decodeFunctionResult({
      abi: aggregatorV3Abi,
      functionName: 'decimals',
      data: encodeFunctionResult({ abi: aggregatorV3Abi, functionName: 'decimals', result: 8 }),
    });
    const reading = readOracleFeed({ roundId, answer, startedAt, updatedAt, answeredInRound }, decimals);
    expect(reading.ok && formatDecimal(reading.value.value)).toBe('3000.12345678');
  });

  it('refuses an answer of 0 or below', () => {
    expect(readOracleFeed({ ...round, answer: 0n }, 8)).toMatchObject({ ok: false, error: { code: 'non-positive-answer' } });
    expect(readOracleFeed({ ...round, answer: -5n }, 8)).toMatchObject({ ok: false, error: { code: 'non-positive-answer' } });
  });

  it('refuses an answer carried over from an earlier round', () => {
    expect(readOracleFeed({ ...round, answeredInRound: round.roundId - 1n }, 8)).toMatchObject({ ok: false, error: { code: 'carried-over-round' } });
    expect(readOracleFeed({ ...round, answeredInRound: round.roundId + 1n }, 8).ok).toBe(true);
  });

  it('refuses a round never updated or updated at no real time', () => {
    expect(readOracleFeed({ ...round, updatedAt: 0n }, 8)).toMatchObject({ ok: false, error: { code: 'not-updated' } });
    expect(readOracleFeed({ ...round, updatedAt: 2n ** 255n }, 8)).toMatchObject({ ok: false, error: { code: 'bad-updated-at' } });
  });

  it('refuses bad decimals and an answer below 10^-18', () => {
    expect(readOracleFeed(round, 78)).toMatchObject({ ok: false, error: { code: 'bad-decimals' } });
    expect(readOracleFeed({ ...round, answer: 1n }, 20)).toMatchObject({ ok: false, error: { code: 'below-precision' } });
  });
});
