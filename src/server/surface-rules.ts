import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { canonicalLink } from '../http/media.ts';
import { surfaceManifestFile, surfaceManifestSchema, type SurfaceManifest } from '../http/surface-manifest.ts';

// The build's rules manifest (dist/_surface.json), validated and compiled into lookups.

export interface SurfaceRules {
  site: string;
  /** Content type the manifest assigns to a site path, if any. */
  typeOf(path: string): string | undefined;
  /** `.md` twin path -> canonical `Link` header value. */
  canonicalLinkOf(twinPath: string): string | undefined;
  /** HTML path -> its `.md` twin path. */
  twinOf(htmlPath: string): string | undefined;
  notFound: { html: string; markdown: string };
  /** The environment-derived inputs the site was built with (src/config/build-environment.ts); null when unrecorded. */
  environment: Record<string, string | null> | null;
}

export async function loadSurfaceRules(distDir: string): Promise<SurfaceRules> {
  const file = join(distDir, surfaceManifestFile);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new Error(`${file} is missing: build the site first (npm run build).`);
  }
  const parsed = surfaceManifestSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${file} is not a valid rules manifest: ${z.prettifyError(parsed.error)}`);
  return compileSurfaceRules(parsed.data);
}

export function compileSurfaceRules(manifest: SurfaceManifest): SurfaceRules {
  const types = manifest.types.map(({ pattern, contentType }) => ({ test: patternToRegExp(pattern), contentType }));
  const links = new Map(Object.entries(manifest.twins).map(([twin, html]) => [twin, canonicalLink(manifest.site, html)]));
  const twinByHtml = new Map(Object.entries(manifest.twins).map(([twin, html]) => [html, twin]));
  return {
    site: new URL(manifest.site).origin,
    typeOf: (path) => types.find((type) => type.test.test(path))?.contentType,
    canonicalLinkOf: (twinPath) => links.get(twinPath),
    twinOf: (htmlPath) => twinByHtml.get(htmlPath),
    notFound: manifest.notFound,
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
