import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../src/api/query.ts';

describe('parseQuery', () => {
  it('decodes pairs, repeated keys and bare keys', () => {
    expect(parseQuery('?a=1&b=x%20y&b=z+w&flag')).toEqual({ ok: true, value: { a: '1', b: ['x y', 'z w'], flag: '' } });
    expect(parseQuery('')).toEqual({ ok: true, value: {} });
  });

  it('treats __proto__ as data', () => {
    const result = parseQuery('?__proto__=x');
    // biome-ignore lint/suspicious/noProto: the test is that a query key named __proto__ stays a plain key
    expect(result.ok && result.value.__proto__).toBe('x');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('refuses malformed escapes that URLSearchParams would keep', () => {
    expect(parseQuery('?transactionHash=%zz')).toEqual({ ok: false, reason: 'unparseable' });
    expect(parseQuery('?a=%E3%81')).toEqual({ ok: false, reason: 'unparseable' });
  });
});
