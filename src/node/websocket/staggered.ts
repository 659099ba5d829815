// A periodic duty of every connection (the keepalive, the open subscriptions' charge) done a
// slice of the connections at a time: each member's turn still comes once per interval, but no
// tick does all of them at once. Done in one tick, 1,000 connections' pings and key checks cost
// about as much as a notification's fan-out to all of them, and delay every delivery of a head
// that meets it.

/** Ticks per interval: each does the members of one slice. */
export const SLICES_PER_INTERVAL = 10;

export interface Staggered<T> {
  add(member: T): void;
  delete(member: T): void;
  stop(): void;
}

/** Calls `duty` for each member once every `intervalMs`, a slice of the members per tick. */
export function staggered<T>(intervalMs: number, duty: (member: T) => void): Staggered<T> {
  const slices = Array.from({ length: SLICES_PER_INTERVAL }, () => new Set<T>());
  const sliceOf = new Map<T, Set<T>>();
  let added = 0;
  let tick = 0;
  const timer = setInterval(() => {
    for (const member of slices[tick++ % SLICES_PER_INTERVAL]!) duty(member);
  }, intervalMs / SLICES_PER_INTERVAL);
  timer.unref();
  return {
    add(member) {
      const slice = slices[added++ % SLICES_PER_INTERVAL]!;
      slice.add(member);
      sliceOf.set(member, slice);
    },
    delete(member) {
      sliceOf.get(member)?.delete(member);
      sliceOf.delete(member);
    },
    stop: () => clearInterval(timer),
  };
}
