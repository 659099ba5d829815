import { createHash } from 'node:crypto';
import { locales } from '../site/locales.ts';
import { faucetsUrl } from '../site/urls.ts';

// Which Cache-Control and security headers each kind of response carries.

export const cacheControl = {
  /** Vite's hashed assets never change under their name. */
  immutable: 'public, max-age=31536000, immutable',
  /** HTML, twins, llms*.txt, sitemaps, search JSON and other public files: short, then revalidate. */
  revalidate: 'public, max-age=300, stale-while-revalidate=86400',
  /** Redirects between `/x` and `/x/`, and `.html` to the clean URL, hold as long as the build. */
  permanentRedirect: 'public, max-age=3600',
  notFound: 'public, max-age=60',
} as const;

export function cacheControlOf(path: string): string {
  return path.startsWith('/_astro/') ? cacheControl.immutable : cacheControl.revalidate;
}

/** Cloudflare Turnstile needs its script and its iframe (developers.cloudflare.com/turnstile/reference/content-security-policy). */
export const turnstileOrigin = 'https://challenges.cloudflare.com';

const faucetPrefixes = locales.map((locale) => faucetsUrl(locale));

/** Faucet pages (`/faucets/`, `/faucets/<id>`, per locale) embed the Turnstile widget. */
export function isFaucetPage(path: string): boolean {
  return faucetPrefixes.some((prefix) => path === prefix || path === prefix.slice(0, -1) || path.startsWith(prefix));
}

/**
 * A CSP that allows what this page uses and nothing else: its own origin, the exact inline
 * scripts it carries (by hash; all of them the site's own, since content that would add one
 * fails the build: src/site/content-safety.ts), inline styles (Shiki colours tokens with style
 * attributes), images from the origins its <img> tags name and from the canonical site origin
 * (the search index's app icons are absolute URLs there, whatever origin serves the page), and
 * Turnstile on faucet pages.
 */
export function contentSecurityPolicy(html: string, options: { turnstile: boolean; siteOrigin?: string }): string {
  const scriptHashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attributes = match[1] ?? '';
    if (/\bsrc\s*=/i.test(attributes)) continue;
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase();
    if (type && type !== 'module' && !type.includes('javascript')) continue; // data blocks never execute
    scriptHashes.add(`'sha256-${createHash('sha256').update(match[2] ?? '').digest('base64')}'`);
  }
  const imageOrigins = new Set<string>(options.siteOrigin ? [options.siteOrigin] : []);
  for (const match of html.matchAll(/<img\b[^>]*?\bsrc\s*=\s*["']?(https:\/\/[^/"'\s>]+)/gi)) imageOrigins.add(match[1]!);

  const turnstile = options.turnstile ? [turnstileOrigin] : [];
  const directives: Array<[string, string[]]> = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...scriptHashes, ...turnstile]],
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['img-src', ["'self'", 'data:', ...imageOrigins]],
    ['font-src', ["'self'"]],
    ['connect-src', ["'self'"]],
    ['frame-src', turnstile.length ? turnstile : ["'none'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  return directives.map(([name, values]) => `${name} ${values.join(' ')}`).join('; ');
}

/** Headers every HTML response carries besides its CSP. */
export const htmlSecurityHeaders = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
} as const;
