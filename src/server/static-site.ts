import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { matchesEtag, strongEtag, strongEtagOfStream, variantEtag } from '../api/etag.ts';
import { cachedChooseEncoding, type Encoding } from './accept-encoding.ts';
import { cachedPrefersMarkdown } from './accept.ts';
import { contentTypeByExtension } from './content-types.ts';
import { cacheControl, cacheControlOf, contentSecurityPolicy, htmlSecurityHeaders, isFaucetPage } from './header-policy.ts';
import type { SurfaceRules } from './surface-rules.ts';

// Serves dist/ under the rules manifest: clean URLs of Astro's `build.format: 'preserve'`,
// markdown negotiation (spec 4.7), precompressed variants, strong ETags and 304s, 404 bodies.
// Every servable path is indexed from dist/ at start-up; nothing else can ever be read.
//
// Trailing slashes: homes and section indexes are directories (`/blog/`), leaf pages are not
// (`/blog/x`). The other spelling answers 308 to the canonical one, and so does `x.html`.

export type ReplyHeaders = Record<string, string | number>;

export interface StaticRequest {
  method: string;
  /** Decoded site path from resolveRequestPath(). */
  path: string;
  /** Raw query string including `?`, or ''. */
  query: string;
  accept?: string;
  acceptEncoding?: string;
  ifNoneMatch?: string;
}

export interface StaticReply {
  status: number;
  headers: ReplyHeaders;
  /** A buffered body, or a file streamed from disk; none for HEAD, 304 and redirects. */
  body?: Buffer | { file: string };
}

export interface StaticSiteOptions {
  /** Files up to this size are kept in memory once read. */
  maxCachedFileBytes?: number;
  /** Total bytes of file bodies kept in memory; later files are streamed from disk. */
  cacheBudgetBytes?: number;
}

interface FileEntry {
  file: string;
  sitePath: string;
  contentType: string;
  kind: 'html' | 'twin' | 'other';
  cacheControl: string;
  variants: Partial<Record<'br' | 'gzip', string>>;
  /** HTML pages: their `.md` twin. Twins: their canonical Link. */
  twin?: string;
  link?: string;
  loaded?: Promise<LoadedEntry>;
}

interface Variant {
  headers: ReplyHeaders;
  etag: string;
  body: Buffer | { file: string };
}

type LoadedEntry = Record<Encoding, Variant | undefined> & { identity: Variant };

export interface StaticSite {
  /** True when dist/ holds a file served at exactly this path. */
  has(path: string): boolean;
  reply(request: StaticRequest): Promise<StaticReply>;
  /** The 404 answer for a path (markdown body for `.md`, the HTML 404 page otherwise). */
  notFound(request: Pick<StaticRequest, 'method' | 'path' | 'acceptEncoding'>): Promise<StaticReply>;
}

/** An SVG opened on its own is a document that may run script on the site's origin: render it inert. */
const svgSecurityHeaders = { 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox", 'x-content-type-options': 'nosniff' };

/**
 * The markdown redirect depends on Accept: a shared cache that ignores Vary would send it to
 * browsers asking for HTML, so only the client's own cache may keep it.
 */
const negotiatedRedirectCacheControl = 'private';

const compressedSuffix = { br: '.br', gzip: '.gz' } as const;
const etagSuffix = { identity: '', br: '-br', gzip: '-gz' } as const;

export async function openStaticSite(distDir: string, rules: SurfaceRules, options: StaticSiteOptions = {}): Promise<StaticSite> {
  const maxCachedFileBytes = options.maxCachedFileBytes ?? 1024 * 1024;
  let budget = options.cacheBudgetBytes ?? 256 * 1024 * 1024;
  const prefersMarkdown = cachedPrefersMarkdown();
  const chooseEncoding = cachedChooseEncoding();

  const files = new Set<string>();
  for (const dirent of await readdir(distDir, { recursive: true, withFileTypes: true })) {
    // Regular files only: a symlink in dist/ could point anywhere.
    if (dirent.isFile()) files.add(relative(distDir, join(dirent.parentPath, dirent.name)).split(sep).join('/'));
  }
  for (const required of [rules.notFound.html, rules.notFound.markdown]) {
    if (!files.has(required)) throw new Error(`${join(distDir, required)} is missing: the rules manifest names it as a 404 body.`);
  }

  const entryOf = (relativePath: string, sitePath: string, cache: string): FileEntry => {
    const contentType = rules.typeOf(`/${relativePath}`) ?? contentTypeByExtension(relativePath);
    const variants: FileEntry['variants'] = {};
    for (const encoding of ['br', 'gzip'] as const) {
      if (files.has(relativePath + compressedSuffix[encoding])) variants[encoding] = join(distDir, relativePath + compressedSuffix[encoding]);
    }
    const twinLink = rules.canonicalLinkOf(sitePath);
    const twin = contentType.startsWith('text/html') ? rules.twinOf(sitePath) : undefined;
    return {
      file: join(distDir, relativePath),
      sitePath,
      contentType,
      kind: contentType.startsWith('text/html') ? 'html' : twinLink ? 'twin' : 'other',
      cacheControl: cache,
      variants,
      twin,
      link: twinLink ?? (twin ? `<${twin}>; rel="alternate"; type="text/markdown"` : undefined),
    };
  };

  const routes = new Map<string, FileEntry>();
  const hidden = new Set(['_surface.json', rules.notFound.html, rules.notFound.markdown]);
  for (const relativePath of files) {
    if (hidden.has(relativePath)) continue;
    const base = relativePath.replace(/\.(br|gz)$/, '');
    if (base !== relativePath && files.has(base)) continue; // a precompressed sibling
    const sitePath = sitePathOf(relativePath);
    routes.set(sitePath, entryOf(relativePath, sitePath, cacheControlOf(sitePath)));
  }
  const notFoundHtml = entryOf(rules.notFound.html, '/404', cacheControl.notFound);
  const notFoundMarkdown = entryOf(rules.notFound.markdown, '/404.md', cacheControl.notFound);

  // Loaded once per file; a failed read is retried by the next request rather than remembered.
  const load = (entry: FileEntry): Promise<LoadedEntry> =>
    (entry.loaded ??= loadEntry(entry).catch((error: unknown) => {
      entry.loaded = undefined;
      throw error;
    }));

  async function loadEntry(entry: FileEntry): Promise<LoadedEntry> {
    const { size } = await stat(entry.file);
    const keep = size <= maxCachedFileBytes && size <= budget;
    const identityBytes = keep || entry.kind === 'html' ? await readFile(entry.file) : undefined;
    const identityTag = identityBytes ? strongEtag(identityBytes) : await strongEtagOfStream(createReadStream(entry.file));
    const security =
      entry.kind === 'html'
        ? { 'content-security-policy': contentSecurityPolicy(identityBytes!.toString('utf8'), { turnstile: isFaucetPage(entry.sitePath), siteOrigin: rules.site }), ...htmlSecurityHeaders }
        : fileSecurityHeaders(entry.contentType);
    const hasVariants = Object.keys(entry.variants).length > 0;
    const vary = [entry.twin ? 'Accept' : '', hasVariants ? 'Accept-Encoding' : ''].filter(Boolean).join(', ');

    const variant = async (encoding: Encoding, file: string): Promise<Variant> => {
      const bytes = encoding === 'identity' ? identityBytes : keep ? await readFile(file) : undefined;
      const length = bytes ? bytes.byteLength : (await stat(file)).size;
      const cached = keep && bytes !== undefined;
      if (cached) budget -= length;
      const etag = variantEtag(identityTag, etagSuffix[encoding]);
      const headers: ReplyHeaders = {
        'content-type': entry.contentType,
        'content-length': length,
        etag,
        'cache-control': entry.cacheControl,
        ...(vary ? { vary } : {}),
        ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
        ...(entry.link ? { link: entry.link } : {}),
        ...security,
      };
      return { headers, etag, body: cached ? bytes : { file } };
    };

    return {
      identity: await variant('identity', entry.file),
      br: entry.variants.br ? await variant('br', entry.variants.br) : undefined,
      gzip: entry.variants.gzip ? await variant('gzip', entry.variants.gzip) : undefined,
    };
  }

  async function send(entry: FileEntry, status: number, request: Pick<StaticRequest, 'method' | 'acceptEncoding' | 'ifNoneMatch'>): Promise<StaticReply> {
    const loaded = await load(entry);
    const encoding = chooseEncoding(request.acceptEncoding, { br: !!loaded.br, gzip: !!loaded.gzip });
    const variant = loaded[encoding] ?? loaded.identity;
    if (status === 200 && matchesEtag(request.ifNoneMatch, variant.etag)) {
      const { etag, vary, link } = variant.headers;
      return { status: 304, headers: { etag: etag!, 'cache-control': entry.cacheControl, ...(vary ? { vary } : {}), ...(link ? { link } : {}) } };
    }
    return { status, headers: variant.headers, body: request.method === 'HEAD' ? undefined : variant.body };
  }

  const redirect = (status: 307 | 308, location: string, headers: ReplyHeaders = {}): StaticReply => ({
    status,
    headers: { location, 'content-length': 0, ...headers },
  });

  const site: StaticSite = {
    has: (path) => routes.has(path),

    notFound: (request) => send(request.path.endsWith('.md') ? notFoundMarkdown : notFoundHtml, 404, request),

    async reply(request) {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return { status: 405, headers: { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8', 'content-length': 19 }, body: Buffer.from('Method Not Allowed\n') };
      }
      const { path, query } = request;
      const entry = routes.get(path);
      if (!entry) {
        const canonical = pageRedirectTarget(path, (candidate) => routes.get(candidate)?.kind === 'html');
        if (canonical) return redirect(308, encodePath(canonical) + query, { 'cache-control': cacheControl.permanentRedirect });
        return site.notFound(request);
      }
      if (entry.twin && prefersMarkdown(request.accept)) {
        return redirect(307, encodePath(entry.twin) + query, { vary: 'Accept', 'cache-control': negotiatedRedirectCacheControl });
      }
      return send(entry, 200, request);
    },
  };
  return site;
}

/** Security headers of a file that is not an HTML page. */
function fileSecurityHeaders(contentType: string): ReplyHeaders {
  return contentType.startsWith('image/svg+xml') ? svgSecurityHeaders : { 'x-content-type-options': 'nosniff' };
}

/** A decoded site path as it goes in a Location header. */
function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

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
