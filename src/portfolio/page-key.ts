import { z } from 'zod';

// The portfolio's page keys and history cursors (docs/portfolio.md#paging): opaque to callers, each
// is base64url of what it points at, the wallet-and-network pair (by its place in the request) and
// where within that pair's own list the next page starts. A key another endpoint gave, or any text
// this did not write, is refused (400) before anything is read.

const KINDS = ['tokens', 'nfts', 'collections', 'history'] as const;
type KeyKind = (typeof KINDS)[number];

const Inner = {
  /** null: the pair's first page (its coin first); a string: the ERC-20 page key ('' for the first). */
  tokens: z.string().max(200).nullable(),
  /** The NFT endpoints' own pageKey; null: the pair's first page. */
  nfts: z.string().max(300).nullable(),
  /** The last contract of the page. */
  collections: z.string().regex(/^0x[0-9a-f]{40}$/),
  /** The transaction at the page's edge: its block and its position in it. */
  history: z.tuple([z.int().min(0), z.int().min(0)]),
} as const;

type InnerOf<K extends KeyKind> = z.output<(typeof Inner)[K]>;

export function encodePortfolioKey<K extends KeyKind>(kind: K, pair: number, inner: InnerOf<K>): string {
  return Buffer.from(JSON.stringify([kind, pair, inner])).toString('base64url');
}

/** What a key points at, or null when it is not one this gave for `kind` over `pairs` pairs. */
export function decodePortfolioKey<K extends KeyKind>(kind: K, key: string, pairs: number): { pair: number; inner: InnerOf<K> } | null {
  if (!/^[A-Za-z0-9_-]{1,500}$/.test(key)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(key, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const shape = z
    .tuple([
      z.literal(kind),
      z
        .int()
        .min(0)
        .max(pairs - 1),
      Inner[kind],
    ])
    .safeParse(parsed);
  if (!shape.success) return null;
  const [, pair, inner] = shape.data as [K, number, InnerOf<K>];
  return { pair, inner };
}
