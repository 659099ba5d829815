import { z } from 'zod';

// The rules/headers manifest the surface integration writes to `dist/_surface.json`. The
// production server (src/server/) applies it to every static response, and a CDN worker could
// apply the same file. Paths are site-relative URL paths.

export const surfaceManifestFile = '_surface.json';

const sitePath = z.string().startsWith('/');

export const surfaceManifestSchema = z.object({
  version: z.literal(1),
  /** Absolute site origin used in canonical links, e.g. https://crucible.dev */
  site: z.url(),
  /**
   * Every `.md` twin and the HTML page it mirrors: `/blog/x.md` -> `/blog/x`, `/index.md` -> `/`.
   * Twins answer with `Content-Type: text/markdown; charset=utf-8` and
   * `Link: <site + html path>; rel="canonical"`; a GET/HEAD of the HTML path whose Accept
   * prefers text/markdown is redirected (307) to the twin (spec 4.7).
   */
  twins: z.record(sitePath, sitePath),
  /**
   * Content types of generated files that an extension alone cannot tell (first match wins).
   * `pattern` is a site path where `*` matches within one segment and a trailing `/**` any depth.
   */
  types: z.array(z.object({ pattern: sitePath, contentType: z.string().min(1) })),
  /** dist-relative bodies for 404s: `markdown` for any missing `*.md`, `html` otherwise. */
  notFound: z.object({ html: z.string().min(1), markdown: z.string().min(1) }),
  /**
   * The build's inputs taken from the environment (src/config/build-environment.ts), as this
   * build saw them; `npm start` rebuilds when the environment now gives others. Absent from a
   * manifest the build did not write (a test's, a CDN's).
   */
  environment: z.record(z.string(), z.string().nullable()).optional(),
});

export type SurfaceManifest = z.infer<typeof surfaceManifestSchema>;
