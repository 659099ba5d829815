import { describe, expect, it } from 'vitest';
import { cachedPrefersMarkdown, parseAccept, prefersMarkdown } from '../../../src/server/markdown-negotiation.ts';

describe('prefersMarkdown (docs/website.md#content-negotiation)', () => {
  it.each([
    ['text/markdown', true],
    ['text/markdown, text/html;q=0.9', true],
    ['text/html;q=0.9, text/markdown', true],
    ['text/markdown, text/html', true],
    ['text/markdown;q=0.9, text/html;q=0.9', true],
    ['text/markdown, */*', true],
    ['text/markdown;q=0.5, */*;q=0.1', true],
    ['TEXT/MARKDOWN', true],
    ['text/markdown ; q=1.0', true],
  ])('%s -> markdown', (accept, expected) => expect(prefersMarkdown(accept)).toBe(expected));

  it.each([
    [undefined, false],
    ['', false],
    ['*/*', false],
    ['text/*', false],
    ['text/html', false],
    ['text/markdown;q=0', false],
    ['text/markdown;q=0, */*', false],
    ['text/markdown;q=0.000', false],
    ['text/html, text/markdown', false],
    ['text/markdown;q=0.5, text/html', false],
    ['text/html;q=0.9, text/markdown;q=0.9', false],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', false],
    ['application/json', false],
    ['text/markdown;q=abc', false],
    ['text/markdown;q=2', false],
  ])('%s -> HTML', (accept, expected) => expect(prefersMarkdown(accept)).toBe(expected));
});

describe('parseAccept', () => {
  it('reads ranges, q-values and order, skipping junk', () => {
    expect(parseAccept('text/html;level=1;q=0.5, junk, */*')).toEqual([
      { type: 'text', subtype: 'html', q: 0.5, index: 0 },
      { type: '*', subtype: '*', q: 1, index: 2 },
    ]);
  });
});

describe('cachedPrefersMarkdown', () => {
  it('answers as prefersMarkdown, past its bound too', () => {
    const cached = cachedPrefersMarkdown(2);
    for (const accept of ['text/markdown', '*/*', 'text/html, text/markdown;q=0.9', 'text/markdown', '', undefined]) {
      expect(cached(accept), String(accept)).toBe(prefersMarkdown(accept));
    }
  });
});
