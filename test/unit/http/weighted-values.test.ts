import { describe, expect, it } from 'vitest';
import { parseWeightedValues } from '../../../src/http/weighted-values.ts';

describe('parseWeightedValues', () => {
  it('reads values, q-values and positions, lower-cased, parameters dropped', () => {
    expect(parseWeightedValues('text/HTML;level=1;q=0.5, junk, , */*')).toEqual([
      { value: 'text/html', q: 0.5, index: 0 },
      { value: 'junk', q: 1, index: 1 },
      { value: '*/*', q: 1, index: 3 },
    ]);
    expect(parseWeightedValues('gzip;q=1.0, br ; Q=0.25, identity;q=0')).toEqual([
      { value: 'gzip', q: 1, index: 0 },
      { value: 'br', q: 0.25, index: 1 },
      { value: 'identity', q: 0, index: 2 },
    ]);
  });

  it.each(['2', '1.5', '0.1234', 'abc', '', '-1'])('counts a malformed weight q=%s as not acceptable', (q) => {
    expect(parseWeightedValues(`br;q=${q}`)).toEqual([{ value: 'br', q: 0, index: 0 }]);
  });
});
