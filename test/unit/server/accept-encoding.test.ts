import { describe, expect, it } from 'vitest';
import { chooseEncoding } from '../../../src/server/accept-encoding.ts';

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
