import { describe, expect, it } from 'vitest';
import { decodePortfolioKey, encodePortfolioKey } from '../../../src/portfolio/page-key.ts';

// The portfolio's page keys (docs/portfolio.md#paging): each endpoint reads back only the keys it
// wrote, for a pair the request has.

describe('portfolio page keys', () => {
  it('read back what they were written with', () => {
    expect(decodePortfolioKey('tokens', encodePortfolioKey('tokens', 1, null), 2)).toEqual({ pair: 1, inner: null });
    expect(decodePortfolioKey('tokens', encodePortfolioKey('tokens', 0, 'abc'), 1)).toEqual({ pair: 0, inner: 'abc' });
    expect(decodePortfolioKey('history', encodePortfolioKey('history', 3, [120, 4]), 4)).toEqual({ pair: 3, inner: [120, 4] });
    const contract = `0x${'ab'.repeat(20)}`;
    expect(decodePortfolioKey('collections', encodePortfolioKey('collections', 0, contract), 1)).toEqual({ pair: 0, inner: contract });
  });

  it("refuse another endpoint's key, a pair the request does not have, and text they did not write", () => {
    expect(decodePortfolioKey('nfts', encodePortfolioKey('tokens', 0, null), 2)).toBeNull();
    expect(decodePortfolioKey('tokens', encodePortfolioKey('tokens', 2, null), 2)).toBeNull();
    expect(decodePortfolioKey('history', encodePortfolioKey('history', 0, [-1, 0] as [number, number]), 1)).toBeNull();
    expect(decodePortfolioKey('collections', encodePortfolioKey('collections', 0, 'not an address'), 1)).toBeNull();
    for (const text of ['', 'not-a-key', 'eyJ4Ijo', '%%%', Buffer.from('["tokens",0,null,1]').toString('base64url'), 'x'.repeat(501)])
      expect(decodePortfolioKey('tokens', text, 2), text).toBeNull();
  });
});
