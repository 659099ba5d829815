import { createHash } from 'node:crypto';
import type { SurfaceManifest } from '../../src/http/surface-manifest.ts';
import { locales } from '../../src/site/locales.ts';
import { faucetsUrl } from '../../src/site/urls.ts';

// The site's response headers, decided at build and recorded in the rules manifest: cache
// classes, security headers, the redirects' headers, and the CSP of each HTML page. The server
// and static hosts apply what the manifest says; nothing here runs per request.

const cacheControl = {
  /** Vite's hashed assets never change under their name. */
  immutable: 'public, max-age=31536000, immutable',
  /** HTML, twins, llms*.txt, sitemaps, search JSON and other public files: short, then revalidate. */
  revalidate: 'public, max-age=300, stale-while-revalidate=86400',
  /** Redirects between `/x` and `/x/`, and `.html` to the clean URL, hold as long as the build. */
  permanentRedirect: 'public, max-age=3600',
  notFound: 'public, max-age=60',
  /**
   * The markdown redirect depends on Accept: a shared cache that ignores Vary would send it to
   * browsers asking for HTML, so only the client's own cache may keep it.
   */
  negotiatedRedirect: 'private',
} as const;

/** Every file of dist/ by path; first match per header (see the manifest's `headers`). */
export const headerRules: SurfaceManifest['headers'] = [
  { pattern: '/_astro/**', headers: { 'cache-control': cacheControl.immutable } },
  // An SVG opened on its own is a document that may run script on the site's origin: render it inert.
  { pattern: '/**/*.svg', headers: { 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox" } },
  { pattern: '/**', headers: { 'cache-control': cacheControl.revalidate, 'x-content-type-options': 'nosniff' } },
];

export const notFoundHeaders: SurfaceManifest['notFound']['headers'] = { 'cache-control': cacheControl.notFound };

export const redirectRules: SurfaceManifest['redirects'] = {
  spellings: { status: 308, headers: { 'cache-control': cacheControl.permanentRedirect } },
  markdownTwin: { status: 307, headers: { 'cache-control': cacheControl.negotiatedRedirect, vary: 'Accept' } },
};

/** Headers every HTML page carries besides its CSP. */
const htmlSecurityHeaders = { 'referrer-policy': 'strict-origin-when-cross-origin' } as const;

/** Cloudflare Turnstile needs its script and its iframe (developers.cloudflare.com/turnstile/reference/content-security-policy). */
const turnstileOrigin = 'https://challenges.cloudflare.com';

const faucetPrefixes = locales.map((locale) => faucetsUrl(locale));

/** Faucet pages (`/faucets/`, `/faucets/<id>`, per locale) embed the Turnstile widget. */
export function isFaucetPage(path: string): boolean {
  return faucetPrefixes.some((prefix) => path === prefix || path === prefix.slice(0, -1) || path.startsWith(prefix));
}

/** The headers of the HTML page served at `path`, from its bytes. */
export function pageHeaders(page: Buffer, path: string, siteOrigin: string): Record<string, string> {
  return { 'content-security-policy': contentSecurityPolicy(page, { turnstile: isFaucetPage(path), siteOrigin }), ...htmlSecurityHeaders };
}

/**
 * A CSP that allows what this page uses and nothing else: its own origin, the exact inline
 * scripts it carries (by hash; all of them the site's own, since content that would add one
 * fails the build: src/site/content-safety.ts), inline styles (Shiki colours tokens with style
 * attributes), images from the origins its <img> tags name and from the canonical site origin
 * (the search index's app icons are absolute URLs there, whatever origin serves the page), the
 * origins a page's scripts call as its `data-endpoint` attributes name them (the NFT gallery's
 * `{node_url}` on its own host when NODE_DOMAIN is set), and Turnstile on faucet pages.
 */
export function contentSecurityPolicy(page: Buffer, options: { turnstile: boolean; siteOrigin?: string }): string {
  // One character per byte: the markup looked for is ASCII, and a script's hash is over its bytes
  // as served (decoding as UTF-8 first made this scan about 1.5 times slower at 10,000 pages).
  const html = page.toString('latin1');
  const scriptHashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attributes = match[1] ?? '';
    if (/\bsrc\s*=/i.test(attributes)) continue;
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase();
    if (type && type !== 'module' && !type.includes('javascript')) continue; // data blocks never execute
    scriptHashes.add(
      `'sha256-${createHash('sha256')
        .update(match[2] ?? '', 'latin1')
        .digest('base64')}'`,
    );
  }
  const imageOrigins = new Set<string>(options.siteOrigin ? [options.siteOrigin] : []);
  for (const match of html.matchAll(/<img\b[^>]*?\bsrc\s*=\s*["']?(https:\/\/[^/"'\s>]+)/gi))
    imageOrigins.add(Buffer.from(match[1]!, 'latin1').toString('utf8'));

  const connectOrigins = new Set<string>();
  for (const match of html.matchAll(/\bdata-endpoint\s*=\s*["']?(https:\/\/[^/"'\s>]+)/gi))
    connectOrigins.add(Buffer.from(match[1]!, 'latin1').toString('utf8'));

  const turnstile = options.turnstile ? [turnstileOrigin] : [];
  const directives: Array<[string, string[]]> = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...scriptHashes, ...turnstile]],
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['img-src', ["'self'", 'data:', ...imageOrigins]],
    ['font-src', ["'self'"]],
    ['connect-src', ["'self'", ...connectOrigins]],
    ['frame-src', turnstile.length ? turnstile : ["'none'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  return directives.map(([name, values]) => `${name} ${values.join(' ')}`).join('; ');
}
