import { describe, expect, it } from 'vitest';
import { divRound, fixedMul, fixedRatio, formatDecimal, numberToFixed, ONE, parseDecimal, tokenUnit } from '../../../src/prices/decimal.ts';

describe('parseDecimal and formatDecimal', () => {
  it('keep 18 decimals exactly', () => {
    expect(parseDecimal('6268.48')).toBe(6268480000000000000000n);
    expect(formatDecimal(parseDecimal('0.000649004842701370')!)).toBe('0.00064900484270137');
    expect(formatDecimal(parseDecimal('123456789012345678901234567890.123456789012345678')!)).toBe('123456789012345678901234567890.123456789012345678');
    expect(formatDecimal(parseDecimal('3000')!)).toBe('3000');
    expect(formatDecimal(parseDecimal('0')!)).toBe('0');
    expect(formatDecimal(parseDecimal('0.1')! + parseDecimal('0.2')!)).toBe('0.3');
  });

  it('round half away from zero at the 19th decimal', () => {
    expect(formatDecimal(parseDecimal('0.0000000000000000015')!)).toBe('0.000000000000000002');
    expect(formatDecimal(parseDecimal('0.0000000000000000014999')!)).toBe('0.000000000000000001');
    expect(formatDecimal(parseDecimal('1.0000000000000000004')!)).toBe('1');
  });

  it('read exponents, as JSON numbers print them', () => {
    expect(formatDecimal(parseDecimal('1e-7')!)).toBe('0.0000001');
    expect(formatDecimal(parseDecimal('1.5E+3')!)).toBe('1500');
    expect(formatDecimal(numberToFixed(0.32)!)).toBe('0.32');
    expect(formatDecimal(numberToFixed(1e-7)!)).toBe('0.0000001');
  });

  it('refuse anything that is not a non-negative decimal', () => {
    for (const text of ['', '-1', '1.', '.5', '1,5', 'abc', '0x10', ' 1', '1e999', 'NaN', 'Infinity']) expect(parseDecimal(text)).toBeNull();
    expect(numberToFixed(Number.NaN)).toBeNull();
    expect(numberToFixed(-0.5)).toBeNull();
    expect(numberToFixed(Number.POSITIVE_INFINITY)).toBeNull();
  });

  it('formats negatives too', () => {
    expect(formatDecimal(-parseDecimal('2.5')!)).toBe('-2.5');
    expect(formatDecimal(-1n)).toBe('-0.000000000000000001');
  });
});

describe('arithmetic', () => {
  it('divRound rounds half away from zero', () => {
    expect(divRound(5n, 2n)).toBe(3n);
    expect(divRound(-5n, 2n)).toBe(-3n);
    expect(divRound(7n, 3n)).toBe(2n);
    expect(divRound(5n, -2n)).toBe(-3n);
  });

  it('fixedRatio and fixedMul', () => {
    expect(formatDecimal(fixedRatio(1n, 3n))).toBe('0.333333333333333333');
    expect(formatDecimal(fixedRatio(2n, 3n))).toBe('0.666666666666666667');
    expect(formatDecimal(fixedMul(parseDecimal('53602.03940154')!, parseDecimal('6268.48')!))).toBe('336003311.9477654592');
    expect(fixedMul(ONE, ONE)).toBe(ONE);
  });

  it('tokenUnit takes whole decimals from 0 to 77', () => {
    expect(tokenUnit(6)).toBe(1_000_000n);
    expect(tokenUnit(0)).toBe(1n);
    expect(tokenUnit(77)).toBe(10n ** 77n);
    expect(tokenUnit(78)).toBeNull();
    expect(tokenUnit(-1)).toBeNull();
    expect(tokenUnit(1.5)).toBeNull();
  });
});
