import { z } from 'zod';

// The rules/headers manifest the surface integration writes to `dist/_surface.json`. The
// production server (src/server/) applies it to every static response; the build also writes
// it out as `_headers` and `_redirects` for static hosts, and a CDN worker could apply the file
// itself. Paths are site-relative URL paths.

export const surfaceManifestFile = '_surface.json';

/** The manifest and what the build writes from it for static hosts: instructions, never served. */
export const unservedFiles: ReadonlySet<string> = new Set([surfaceManifestFile, '_headers', '_redirects']);

const sitePath = z.string().startsWith('/');

/** A site path in which `*` matches within one segment and `/**` any number of whole segments (src/http/surface-rules.ts). */
const sitePattern = z.string().startsWith('/');

/** Lower-case header names, as the server writes them. */
const headers = z.record(z.string().regex(/^[a-z0-9-]+$/), z.string().min(1));

export const surfaceManifestSchema = z
  .object({
    version: z.literal(2),
    /** Absolute site origin used in canonical links, e.g. https://crucible.dev */
    site: z.url(),
    /**
     * Every `.md` twin and the HTML page it mirrors: `/blog/x.md` -> `/blog/x`, `/index.md` -> `/`.
     * Twins answer with `Content-Type: text/markdown; charset=utf-8` and
     * `Link: <site + html path>; rel="canonical"`; their pages with
     * `Link: <twin path>; rel="alternate"; type="text/markdown"`. A GET/HEAD of the HTML path whose
     * Accept prefers text/markdown is redirected to the twin (`redirects.markdownTwin`, docs/website.md#content-negotiation).
     */
    twins: z.record(sitePath, sitePath),
    /** Content types of generated files that an extension alone cannot tell (first match wins). */
    types: z.array(z.object({ pattern: sitePattern, contentType: z.string().min(1) })),
    /**
     * Response headers of the files of dist/, by site path (an HTML page by its URL): a response
     * takes each header from the first rule whose pattern matches its path and names it. A twin's
     * or page's `Link` and a page's `pageHeaders` come before these rules.
     */
    headers: z.array(z.object({ pattern: sitePattern, headers })),
    /**
     * Headers that follow from an HTML page's markup: a Content-Security-Policy that allows the
     * inline scripts it carries (by hash) and the image origins it names. `sets` holds each
     * distinct set once; `pages` maps every HTML page, the 404 page as `/404`, to its set.
     */
    pageHeaders: z.object({ sets: z.array(headers), pages: z.record(sitePath, z.int().nonnegative()) }),
    /** dist-relative bodies for 404s: `markdown` for any missing `*.md`, `html` otherwise; `headers` come before every rule. */
    notFound: z.object({ html: z.string().min(1), markdown: z.string().min(1), headers }),
    /** Redirects, each with its status and the headers of its response; the query string is kept. */
    redirects: z.object({
      /** Every other spelling of an HTML page's URL to the page: `/blog` -> `/blog/`, `/blog/x/` and `/blog/x.html` -> `/blog/x`, `/blog/index.html` -> `/blog/` (src/http/site-paths.ts). */
      spellings: z.object({ status: z.literal(308), headers }),
      /** A GET/HEAD of a page with a twin whose Accept ranks text/markdown above text/html (q-values, RFC 9110 12.5.1) to the twin; `vary` also goes on the page itself. */
      markdownTwin: z.object({ status: z.literal(307), headers: headers.and(z.object({ vary: z.string().min(1) })) }),
    }),
    /**
     * The build's inputs taken from the environment (src/config/build-environment.ts), as this
     * build saw them; `npm start` rebuilds when the environment now gives others. Absent from a
     * manifest the build did not write (a test's, a CDN's).
     */
    environment: z.record(z.string(), z.string().nullable()).optional(),
  })
  .refine((manifest) => Object.values(manifest.pageHeaders.pages).every((set) => set < manifest.pageHeaders.sets.length), {
    message: 'pageHeaders.pages names a set that pageHeaders.sets does not have',
    path: ['pageHeaders', 'pages'],
  });

export type SurfaceManifest = z.infer<typeof surfaceManifestSchema>;
