import { canonicalLink, twinAlternateLink } from './media.ts';
import type { SurfaceManifest } from './surface-manifest.ts';

// The rules manifest compiled into lookups: what the server applies per response, and what the
// build writes out for static hosts from the same answers.

export type HeaderMap = Record<string, string>;

export interface SurfaceRules {
  site: string;
  /** Content type the manifest assigns to a site path, if any. */
  typeOf(path: string): string | undefined;
  /** HTML path -> its `.md` twin path. */
  twinOf(htmlPath: string): string | undefined;
  /** Every `.md` twin's path, sorted. */
  twinPaths: readonly string[];
  /** The headers the manifest gives a file dist/ serves at this path (none of those that depend on the request or the bytes). */
  headersOf(path: string): HeaderMap;
  notFound: SurfaceManifest['notFound'];
  redirects: SurfaceManifest['redirects'];
  /** The environment-derived inputs the site was built with (src/config/build-environment.ts); null when unrecorded. */
  environment: Record<string, string | null> | null;
}

export function compileSurfaceRules(manifest: SurfaceManifest): SurfaceRules {
  const types = manifest.types.map(({ pattern, contentType }) => ({ test: patternToRegExp(pattern), contentType }));
  const rules = manifest.headers.map(({ pattern, headers }) => ({ test: patternToRegExp(pattern), headers }));
  const twinByHtml = new Map(Object.entries(manifest.twins).map(([twin, html]) => [html, twin]));
  const links = new Map<string, string>();
  for (const [twin, html] of Object.entries(manifest.twins)) {
    links.set(twin, canonicalLink(manifest.site, html));
    links.set(html, twinAlternateLink(twin));
  }
  const { sets, pages } = manifest.pageHeaders;
  return {
    site: new URL(manifest.site).origin,
    typeOf: (path) => types.find((type) => type.test.test(path))?.contentType,
    twinOf: (htmlPath) => twinByHtml.get(htmlPath),
    twinPaths: Object.keys(manifest.twins).sort(),
    headersOf(path) {
      const link = links.get(path);
      const page = Object.hasOwn(pages, path) ? sets[pages[path]!] : undefined;
      const headers: HeaderMap = { ...(link ? { link } : {}), ...page };
      for (const rule of rules) {
        if (!rule.test.test(path)) continue;
        for (const [name, value] of Object.entries(rule.headers)) headers[name] ??= value;
      }
      return headers;
    },
    notFound: manifest.notFound,
    redirects: manifest.redirects,
    environment: manifest.environment ?? null,
  };
}

/** `*` matches within one segment; `**` any number of whole segments, including none. */
export function patternToRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (pattern.startsWith('/**/', i)) {
      source += '/(?:[^/]+/)*';
      i += 3;
    } else if (pattern.startsWith('/**', i) && i + 3 === pattern.length) {
      source += '(?:/.*)?';
      i += 2;
    } else if (char === '*') source += '[^/]*';
    else source += char.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}
