/**
 * The rules/headers manifest the surface integration writes to `dist/_surface.json`.
 * The production server (src/server/) applies it to every static response, and a CDN
 * worker could apply the same file. Paths are site-relative URL paths.
 */
export interface SurfaceManifest {
  version: 1;
  /** Absolute site origin used in canonical links, e.g. https://crucible.dev */
  site: string;
  /**
   * Every `.md` twin and the HTML page it mirrors: `/blog/x.md` -> `/blog/x`, `/index.md` -> `/`.
   * Twins answer with `Content-Type: text/markdown; charset=utf-8` and
   * `Link: <site + html path>; rel="canonical"`; a GET/HEAD of the HTML path whose Accept
   * prefers text/markdown is redirected (307) to the twin (spec 4.7).
   */
  twins: Record<string, string>;
  /**
   * Content types of generated files that an extension alone cannot tell (first match wins).
   * `pattern` is a site path where `*` matches within one segment and a trailing `/**` any depth.
   */
  types: Array<{ pattern: string; contentType: string }>;
  /** dist-relative bodies for 404s: `markdown` for any missing `*.md`, `html` otherwise. */
  notFound: { html: string; markdown: string };
  /**
   * The build's inputs taken from the environment (src/config/build-environment.ts), as this
   * build saw them; `npm start` rebuilds when the environment now gives others. Absent from a
   * manifest the build did not write (a test's, a CDN's).
   */
  environment?: Record<string, string | null>;
}

export const surfaceManifestFile = '_surface.json';

export const markdownType = 'text/markdown; charset=utf-8';
export const plainTextType = 'text/plain; charset=utf-8';
export const jsonType = 'application/json; charset=utf-8';
export const xmlType = 'application/xml; charset=utf-8';

/** `Link` header value for a twin (spec 4.7). */
export function canonicalLink(site: string, htmlPath: string): string {
  return `<${new URL(htmlPath, site).href}>; rel="canonical"`;
}
