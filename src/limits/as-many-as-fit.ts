// Equal charges taken together (a subscription's notifications fanned out to many subscribers of
// one caller): how many of them fit, in order, as if each were taken after the one before it. A
// limit refuses a take whole (a bucket, a quota), so a batch is tried whole first, then the rest in
// halves after each refusal: a limit holding k of n charges gives exactly k, in one try when all
// of them fit and in about 2·log2(n) tries otherwise.

/**
 * How many of `count` equal charges fit: `take(n)` takes n of them at once, or nothing (false).
 * The ones that fit are the first ones.
 */
export async function asManyAsFit(count: number, take: (n: number) => boolean | Promise<boolean>): Promise<number> {
  let taken = 0;
  let size = count;
  while (size > 0 && taken < count) {
    size = Math.min(size, count - taken);
    if (await take(size)) taken += size;
    else size = Math.floor(size / 2);
  }
  return taken;
}
