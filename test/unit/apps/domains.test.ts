import { describe, expect, it } from 'vitest';
import { isHostAllowed, normalizeAllowedDomain } from '../../../src/apps/domains.ts';

describe('normalizeAllowedDomain', () => {
  it.each([
    ['example.com', 'example.com'],
    [' Example.COM ', 'example.com'],
    ['*.Example.org', '*.example.org'],
    ['localhost', 'localhost'],
    ['127.0.0.1', '127.0.0.1'],
    ['bücher.de', 'xn--bcher-kva.de'],
  ])('%s -> %s', (entry, normalized) => {
    expect(normalizeAllowedDomain(entry)).toBe(normalized);
  });

  it.each([
    '',
    '*',
    '*.',
    'http://example.com',
    'example.com/path',
    'example.com:8080',
    '-bad.com',
    'a..b',
    '.example.com',
    'example.com.',
    'ex_ample.com',
    '[::1]',
    'a.*.com',
  ])('refuses %j', (entry) => {
    expect(normalizeAllowedDomain(entry)).toBeNull();
  });
});

describe('isHostAllowed', () => {
  it('allows any host when the list is empty', () => {
    expect(isHostAllowed('anything.test', [])).toBe(true);
  });

  it('matches exact hosts, and wildcards for subdomains at any depth but not the domain itself', () => {
    const allowed = ['example.com', '*.example.org'];
    expect(isHostAllowed('example.com', allowed)).toBe(true);
    expect(isHostAllowed('EXAMPLE.com', allowed)).toBe(true);
    expect(isHostAllowed('www.example.com', allowed)).toBe(false);
    expect(isHostAllowed('app.example.org', allowed)).toBe(true);
    expect(isHostAllowed('a.b.example.org', allowed)).toBe(true);
    expect(isHostAllowed('example.org', allowed)).toBe(false);
    expect(isHostAllowed('badexample.org', allowed)).toBe(false);
    expect(isHostAllowed('example.org.evil.test', allowed)).toBe(false);
  });
});
