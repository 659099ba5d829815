// Exact decimal arithmetic for prices (docs/prices.md#aggregation: `value` is a decimal string): numbers are bigints
// scaled by 10^18, so that 0.1 + 0.2 is 0.3 and a reserve of 10^30 loses no digit. Division rounds
// half away from zero at the 18th decimal, the one place precision is given up.

/** Decimals kept. */
const DECIMAL_SCALE = 18;
/** 1 in the fixed-point scale. */
export const ONE = 10n ** BigInt(DECIMAL_SCALE);

/** A decimal number times 10^18. */
export type Fixed = bigint;

/** Token decimals above this are not a real token's: 10^78 exceeds uint256. */
const MAX_TOKEN_DECIMALS = 77;
/** An exponent beyond this is not a price or a volume any source reports. */
const MAX_EXPONENT = 60;

/** n / d rounded half away from zero; d must not be 0. */
export function divRound(n: bigint, d: bigint): bigint {
  const negative = n < 0n !== d < 0n;
  const a = n < 0n ? -n : n;
  const b = d < 0n ? -d : d;
  const q = (2n * a + b) / (2n * b);
  return negative ? -q : q;
}

/** numerator / denominator as a Fixed. */
export const fixedRatio = (numerator: bigint, denominator: bigint): Fixed => divRound(numerator * ONE, denominator);

/** a × b of two Fixed numbers. */
export const fixedMul = (a: Fixed, b: Fixed): Fixed => divRound(a * b, ONE);

/** 10^decimals, or null when decimals is not a whole number from 0 to 77. */
export function tokenUnit(decimals: number): bigint | null {
  return Number.isInteger(decimals) && decimals >= 0 && decimals <= MAX_TOKEN_DECIMALS ? 10n ** BigInt(decimals) : null;
}

const decimalPattern = /^(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** A non-negative decimal ("6268.48", "0.00698254", "1e-7") as a Fixed, rounded at 18 decimals; null when it is anything else. */
export function parseDecimal(text: string): Fixed | null {
  const match = decimalPattern.exec(text);
  if (!match) return null;
  const [, whole, fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText);
  if (Math.abs(exponent) > MAX_EXPONENT) return null;
  // digits × 10^(exponent − fraction length), scaled by 10^18.
  const digits = BigInt(`${whole}${fraction}`);
  const shift = exponent - fraction.length + DECIMAL_SCALE;
  return shift >= 0 ? digits * 10n ** BigInt(shift) : divRound(digits, 10n ** BigInt(-shift));
}

/** A JSON number (exchanges' candles) as a Fixed: its shortest round-trip text, which is the decimal the exchange wrote. */
export function numberToFixed(value: number): Fixed | null {
  return Number.isFinite(value) && value >= 0 ? parseDecimal(String(value)) : null;
}

/** A Fixed as a plain decimal string: no exponent, no trailing zeros ("3000", "0.000649004842701370" → "0.00064900484270137"). */
export function formatDecimal(value: Fixed): string {
  const sign = value < 0n ? '-' : '';
  const digits = (value < 0n ? -value : value).toString().padStart(DECIMAL_SCALE + 1, '0');
  const whole = digits.slice(0, -DECIMAL_SCALE);
  const fraction = digits.slice(-DECIMAL_SCALE).replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}
