import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { matchesEtag, strongEtag, strongEtagOfStream, variantEtag } from '../api/etag.ts';
import { encodePath, pageRedirectTarget, sitePathOf } from '../http/site-paths.ts';
import { unservedFiles } from '../http/surface-manifest.ts';
import type { HeaderMap, SurfaceRules } from '../http/surface-rules.ts';
import { cachedChooseEncoding, type Encoding } from './accept-encoding.ts';
import { cachedPrefersMarkdown } from './markdown-negotiation.ts';
import { contentTypeByExtension } from './content-types.ts';

// Serves dist/ under the rules manifest: clean URLs of Astro's `build.format: 'preserve'` and
// their other spellings (src/http/site-paths.ts), markdown negotiation (docs/website.md#content-negotiation), the headers
// the manifest gives each file, precompressed variants, strong ETags and 304s, 404 bodies.
// Every servable path is indexed from dist/ at start-up; nothing else can ever be read.

type ReplyHeaders = Record<string, string | number>;

interface StaticRequest {
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
  contentType: string;
  /** What the rules manifest gives this response. */
  headers: HeaderMap;
  variants: Partial<Record<'br' | 'gzip', string>>;
  /** HTML pages: their `.md` twin. */
  twin?: string;
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

const compressedSuffix = { br: '.br', gzip: '.gz' } as const;
const notModifiedHeaders = new Set(['etag', 'cache-control', 'vary', 'link']);
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

  const entryOf = (relativePath: string, headers: HeaderMap): FileEntry => {
    const contentType = rules.typeOf(`/${relativePath}`) ?? contentTypeByExtension(relativePath);
    const variants: FileEntry['variants'] = {};
    for (const encoding of ['br', 'gzip'] as const) {
      if (files.has(relativePath + compressedSuffix[encoding])) variants[encoding] = join(distDir, relativePath + compressedSuffix[encoding]);
    }
    const twin = contentType.startsWith('text/html') ? rules.twinOf(sitePathOf(relativePath)) : undefined;
    return { file: join(distDir, relativePath), contentType, headers, variants, twin };
  };

  const routes = new Map<string, FileEntry>();
  const hidden = new Set([...unservedFiles, rules.notFound.html, rules.notFound.markdown]);
  for (const relativePath of files) {
    if (hidden.has(relativePath)) continue;
    const base = relativePath.replace(/\.(br|gz)$/, '');
    if (base !== relativePath && files.has(base)) continue; // a precompressed sibling
    const sitePath = sitePathOf(relativePath);
    routes.set(sitePath, entryOf(relativePath, rules.headersOf(sitePath)));
  }
  const notFoundEntry = (relativePath: string) => entryOf(relativePath, { ...rules.headersOf(sitePathOf(relativePath)), ...rules.notFound.headers });
  const notFoundHtml = notFoundEntry(rules.notFound.html);
  const notFoundMarkdown = notFoundEntry(rules.notFound.markdown);
  const { spellings, markdownTwin } = rules.redirects;

  // Loaded once per file; a failed read is retried by the next request rather than remembered.
  const load = (entry: FileEntry): Promise<LoadedEntry> =>
    (entry.loaded ??= loadEntry(entry).catch((error: unknown) => {
      entry.loaded = undefined;
      throw error;
    }));

  async function loadEntry(entry: FileEntry): Promise<LoadedEntry> {
    const { size } = await stat(entry.file);
    const keep = size <= maxCachedFileBytes && size <= budget;
    const identityBytes = keep ? await readFile(entry.file) : undefined;
    const identityTag = identityBytes ? strongEtag(identityBytes) : await strongEtagOfStream(createReadStream(entry.file));
    const hasVariants = Object.keys(entry.variants).length > 0;
    const vary = [entry.twin ? markdownTwin.headers.vary : '', hasVariants ? 'Accept-Encoding' : ''].filter(Boolean).join(', ');

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
        ...(vary ? { vary } : {}),
        ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
        ...entry.headers,
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
      // What a 200 would have said about caching (RFC 9110 15.4.5), and the Link.
      const kept = Object.entries(variant.headers).filter(([name]) => notModifiedHeaders.has(name));
      return { status: 304, headers: Object.fromEntries(kept) };
    }
    return { status, headers: variant.headers, body: request.method === 'HEAD' ? undefined : variant.body };
  }

  const redirect = (rule: { status: number; headers: HeaderMap }, location: string): StaticReply => ({
    status: rule.status,
    headers: { location, 'content-length': 0, ...rule.headers },
  });

  const site: StaticSite = {
    has: (path) => routes.has(path),

    notFound: (request) => send(request.path.endsWith('.md') ? notFoundMarkdown : notFoundHtml, 404, request),

    async reply(request) {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return {
          status: 405,
          headers: { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8', 'content-length': 19 },
          body: Buffer.from('Method Not Allowed\n'),
        };
      }
      const { path, query } = request;
      const entry = routes.get(path);
      if (!entry) {
        const canonical = pageRedirectTarget(path, (candidate) => routes.get(candidate)?.contentType.startsWith('text/html') ?? false);
        if (canonical) return redirect(spellings, encodePath(canonical) + query);
        return site.notFound(request);
      }
      if (entry.twin && prefersMarkdown(request.accept)) {
        return redirect(markdownTwin, encodePath(entry.twin) + query);
      }
      return send(entry, 200, request);
    },
  };
  return site;
}
