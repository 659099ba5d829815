// How dist/ files map to URLs under Astro's `build.format: 'preserve'`, and the other spellings
// of a page's URL that redirect to it. The server applies these per request; the build writes
// them out for static hosts (`_redirects`).
//
// Trailing slashes: homes and section indexes are directories (`/blog/`), leaf pages are not
// (`/blog/x`). The other spelling answers 308 to the canonical one, and so does `x.html`.

/** `index.html` -> `/`, `blog/index.html` -> `/blog/`, `blog/x.html` -> `/blog/x`, others as they are. */
export function sitePathOf(relativePath: string): string {
  if (relativePath === 'index.html') return '/';
  if (relativePath.endsWith('/index.html')) return `/${relativePath.slice(0, -'index.html'.length)}`;
  if (relativePath.endsWith('.html')) return `/${relativePath.slice(0, -'.html'.length)}`;
  return `/${relativePath}`;
}

/** The HTML page another spelling of its URL redirects to (308): `/blog` -> `/blog/`, `/blog/x/` -> `/blog/x`, `/blog/x.html` -> `/blog/x`. */
export function pageRedirectTarget(path: string, isPage: (path: string) => boolean): string | undefined {
  const candidates: string[] = [];
  if (path.endsWith('/index.html')) candidates.push(path.slice(0, -'index.html'.length));
  else if (path.endsWith('.html')) candidates.push(path.slice(0, -'.html'.length));
  else if (path.endsWith('/')) candidates.push(path.slice(0, -1));
  else candidates.push(`${path}/`);
  return candidates.find((candidate) => candidate.startsWith('/') && !candidate.startsWith('//') && isPage(candidate));
}

/** Every path pageRedirectTarget() sends to this page: `/blog/` <- `/blog`, `/blog/index.html`; `/blog/x` <- `/blog/x/`, `/blog/x.html`. */
export function otherSpellingsOf(pagePath: string): string[] {
  if (pagePath === '/') return ['/index.html'];
  if (pagePath.endsWith('/')) return [pagePath.slice(0, -1), `${pagePath}index.html`];
  return [`${pagePath}/`, `${pagePath}.html`];
}

/** A decoded site path as it goes in a Location header or a static host's rule. */
export function encodePath(path: string): string {
  if (/^[\w/.~-]*$/.test(path)) return path; // nothing to encode: most paths, and the build writes tens of thousands
  return path.split('/').map(encodeURIComponent).join('/');
}
