import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, isFaucetPage, pageHeaders } from '../../../integrations/surface/header-policy.ts';

const directive = (csp: string, name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `));

describe('contentSecurityPolicy', () => {
  const inline = 'console.log(1)';
  const html = `<script>${inline}</script><script type="module" src="/_astro/a.js"></script><script type="application/ld+json">{}</script><img src="https://cdn.example.org/x.png">`;
  const hash = `'sha256-${createHash('sha256').update(inline).digest('base64')}'`;

  it('allows exactly the inline scripts of the page by hash, never unsafe-inline scripts', () => {
    const csp = contentSecurityPolicy(Buffer.from(html), { turnstile: false });
    expect(directive(csp, 'script-src')).toBe(`script-src 'self' ${hash}`);
    expect(csp).not.toContain('challenges.cloudflare.com');
    expect(directive(csp, 'frame-src')).toBe("frame-src 'none'");
    expect(directive(csp, 'img-src')).toBe("img-src 'self' data: https://cdn.example.org");
    expect(directive(csp, 'object-src')).toBe("object-src 'none'");
    expect(directive(csp, 'frame-ancestors')).toBe("frame-ancestors 'none'");
  });

  it('hashes a script by its UTF-8 bytes, as a browser does', () => {
    const script = "console.log('こんにちは')";
    const csp = contentSecurityPolicy(Buffer.from(`<script>${script}</script>`), { turnstile: false });
    expect(directive(csp, 'script-src')).toBe(`script-src 'self' 'sha256-${createHash('sha256').update(script).digest('base64')}'`);
  });

  it('adds the Turnstile script and frame host on faucet pages', () => {
    const csp = contentSecurityPolicy(Buffer.from(html), { turnstile: true });
    expect(directive(csp, 'script-src')).toBe(`script-src 'self' ${hash} https://challenges.cloudflare.com`);
    expect(directive(csp, 'frame-src')).toBe('frame-src https://challenges.cloudflare.com');
  });

  it('allows images from the canonical site origin, where the search index puts app icons', () => {
    const csp = contentSecurityPolicy(Buffer.from('<p>no images</p>'), { turnstile: false, siteOrigin: 'https://crucible.dev' });
    expect(directive(csp, 'img-src')).toBe("img-src 'self' data: https://crucible.dev");
  });

  it('lets a page call the https origins its data-endpoint attributes name, and only those', () => {
    const gallery = '<section data-nft-gallery data-endpoint="https://ethereum-sepolia.node.example/v2/demo/getNFTs?owner=0x1"></section>';
    expect(directive(contentSecurityPolicy(Buffer.from(gallery), { turnstile: false }), 'connect-src')).toBe(
      "connect-src 'self' https://ethereum-sepolia.node.example",
    );
    const sameOrigin = '<section data-endpoint="/node/ethereum-sepolia/v2/demo/getNFTs"></section>';
    expect(directive(contentSecurityPolicy(Buffer.from(sameOrigin), { turnstile: false }), 'connect-src')).toBe("connect-src 'self'");
  });
});

describe('pageHeaders', () => {
  it('gives a page its CSP, with Turnstile by its path, and the referrer policy', () => {
    const faucet = pageHeaders(Buffer.from('<p>faucet</p>'), '/ja/faucets/base-sepolia', 'https://crucible.dev');
    expect(directive(faucet['content-security-policy']!, 'frame-src')).toBe('frame-src https://challenges.cloudflare.com');
    expect(faucet['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(pageHeaders(Buffer.from('<p>post</p>'), '/blog/x', 'https://crucible.dev')['content-security-policy']).not.toContain('challenges.cloudflare.com');
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
