// Bad arguments to a limit are a caller's bug or a bad configuration: they are refused with a
// named error before anything is read or written, so no bucket or counter is ever corrupted.

export class LimitInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LimitInputError';
  }
}

/** The most tokens (or CUs) a bucket, a cost or a quota may name: past 10^9 the micro-token arithmetic of token-bucket.ts would leave exact integers. */
export const MAX_AMOUNT = 1_000_000_000;

/** `value` must be a whole number from `min` to MAX_AMOUNT (a monthly quota may be larger: it passes `max`). */
export function checkWholeNumber(name: string, value: number, min: number, max = MAX_AMOUNT): void {
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new LimitInputError(`${name} must be a whole number from ${min} to ${max}, not ${value}`);
}
