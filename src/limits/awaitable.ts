// A value a limit may give at once (held in this process's memory) or later (Redis, a database):
// the gateway's hot path chains such steps without a promise, or a microtask, per step when every
// answer is at hand (BENCHMARKS.md, Node gateway).

export type Awaitable<T> = T | Promise<T>;

/** `next(value)` at once when `value` is at hand, once it settles when it is a promise. */
export function andThen<T, U>(value: Awaitable<T>, next: (value: T) => Awaitable<U>): Awaitable<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}
