import { describe, expect, it } from 'vitest';
import { cachedChooseEncoding, chooseEncoding } from '../../../src/server/accept-encoding.ts';

const both = { br: true, gzip: true };

describe('chooseEncoding', () => {
  it.each([
    [undefined, both, 'identity'],
    ['', both, 'identity'],
    ['gzip', both, 'gzip'],
    ['gzip, deflate, br', both, 'br'],
    ['br;q=0.5, gzip', both, 'gzip'],
    ['br, gzip;q=0.8', both, 'br'],
    ['br', { br: false, gzip: true }, 'identity'],
    ['gzip, br', { br: false, gzip: true }, 'gzip'],
    ['*', both, 'br'],
    ['br;q=0, *', both, 'gzip'],
    ['x-gzip', both, 'gzip'],
    ['identity', both, 'identity'],
    ['gzip;q=0.5, identity;q=1', both, 'identity'],
    ['deflate', both, 'identity'],
  ] as const)('%s with %o -> %s', (header, available, expected) => expect(chooseEncoding(header, available)).toBe(expected));
});

describe('cachedChooseEncoding', () => {
  it('answers as chooseEncoding for each set of available variants, past its bound too', () => {
    const cached = cachedChooseEncoding(2);
    for (const available of [both, { br: false, gzip: true }, { br: false, gzip: false }]) {
      for (const header of ['gzip, br', 'br;q=0, *', undefined, 'identity'])
        expect(cached(header, available), `${header} ${JSON.stringify(available)}`).toBe(chooseEncoding(header, available));
    }
  });
});
