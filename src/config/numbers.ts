import { z } from 'zod';

// The numbers settings are written as, one schema each for every reader in src/config/: a
// variable's text (spaces around it ignored) to a number within its bounds, or the sentence that
// completes "<VARIABLE> …" when it is not one. A reader passes `message` only where its settings
// have said it in other words since before this module.

/** A whole number in decimal digits, from `min` (default 0) to `max` (default the largest exact one). */
export function wholeNumber(options: { min?: number; max?: number; message?: string } = {}): z.ZodType<number, string> {
  const { min = 0, max = Number.MAX_SAFE_INTEGER } = options;
  const message = options.message ?? (max === Number.MAX_SAFE_INTEGER ? `must be a whole number from ${min}` : `must be a whole number from ${min} to ${max}`);
  return z
    .string()
    .trim()
    .regex(/^\d{1,16}$/, message)
    .transform(Number)
    .refine((value) => value >= min && value <= max, message);
}

/** A whole number from 1. */
export const positive = wholeNumber({ min: 1 });

/** A whole number from 1 to `max`. */
export const count = (max: number) => wholeNumber({ min: 1, max });

/** A compute-unit amount (a rate, a burst, a charge): the limits' arithmetic is exact up to 10^9 (src/limits/), and a bucket may hold 10 s of a rate. */
export const computeUnitAmount = count(100_000_000);

/** A TCP port; `min` 0 lets the system pick a free one. */
export function port(min: 0 | 1): z.ZodType<number, string> {
  return wholeNumber({ min, max: 65_535, message: `must be a port number from ${min} to 65535${min === 0 ? ' (0 picks a free port)' : ''}` });
}

/** A decimal number (`2`, `0.5`) of at least `min`, or above it when `exclusive`. */
export function decimalNumber(options: { min: number; exclusive?: boolean; message: string; belowMessage?: string }): z.ZodType<number, string> {
  return z
    .string()
    .trim()
    .regex(/^\d{1,16}(\.\d{1,18})?$/, options.message)
    .transform(Number)
    .refine((value) => (options.exclusive ? value > options.min : value >= options.min), options.belowMessage ?? options.message);
}
