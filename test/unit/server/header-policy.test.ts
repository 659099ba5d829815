import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cacheControlOf, contentSecurityPolicy, isFaucetPage } from '../../../src/server/header-policy.ts';

const directive = (csp: string, name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `));

describe('contentSecurityPolicy', () => {
  const inline = 'console.log(1)';
  const html = `<script>${inline}</script><script type="module" src="/_astro/a.js"></script><script type="application/ld+json">{}</script><img src="https://cdn.example.org/x.png">`;
  const hash = `'sha256-${createHash('sha256').update(inline).digest('base64')}'`;

  it('allows exactly the inline scripts of the page by hash, never unsafe-inline scripts', () => {
    const csp = contentSecurityPolicy(html, { turnstile: false });
    expect(directive(csp, 'script-src')).toBe(`script-src 'self' ${hash}`);
    expect(csp).not.toContain('challenges.cloudflare.com');
    expect(directive(csp, 'frame-src')).toBe("frame-src 'none'");
    expect(directive(csp, 'img-src')).toBe("img-src 'self' data: https://cdn.example.org");
    expect(directive(csp, 'object-src')).toBe("object-src 'none'");
    expect(directive(csp, 'frame-ancestors')).toBe("frame-ancestors 'none'");
  });

  it('adds the Turnstile script and frame host on faucet pages', () => {
    const csp = contentSecurityPolicy(html, { turnstile: true });
    expect(directive(csp, 'script-src')).toBe(`script-src 'self' ${hash} https://challenges.cloudflare.com`);
    expect(directive(csp, 'frame-src')).toBe('frame-src https://challenges.cloudflare.com');
  });

  it('allows images from the canonical site origin, where the search index puts app icons', () => {
    const csp = contentSecurityPolicy('<p>no images</p>', { turnstile: false, siteOrigin: 'https://crucible.dev' });
    expect(directive(csp, 'img-src')).toBe("img-src 'self' data: https://crucible.dev");
  });
});

describe('isFaucetPage', () => {
  it.each([
    ['/faucets/', true],
    ['/faucets', true],
    ['/faucets/ethereum-sepolia', true],
    ['/ja/faucets/base-sepolia', true],
    ['/pt-BR/faucets/', true],
    ['/blog/faucets', false],
    ['/faucetsx', false],
    ['/', false],
  ])('%s -> %s', (path, expected) => expect(isFaucetPage(path)).toBe(expected));
});

describe('cacheControlOf', () => {
  it('makes hashed assets immutable and the rest revalidate', () => {
    expect(cacheControlOf('/_astro/page.C3dE4f.js')).toContain('immutable');
    expect(cacheControlOf('/blog/x')).toMatch(/max-age=\d+, stale-while-revalidate=\d+/);
  });
});
