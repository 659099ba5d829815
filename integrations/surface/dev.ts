import type { IncomingMessage, ServerResponse } from 'node:http';
import { openApiDocumentPaths } from '../../src/api/operations/openapi.ts';
import { isLocale, locales } from '../../src/site/locales.ts';
import { sections } from '../../src/site/sections.ts';
import type { Site } from '../../src/site/site.ts';
import { canonicalLink, jsonType, markdownType, plainTextType } from '../../src/http/media.ts';
import { llmsFullUrl, llmsUrl, sectionLlmsUrl } from '../../src/site/urls.ts';
import { renderLlmsTxt, renderSectionLlmsTxt } from './llms.ts';
import { renderOpenApiDocument } from './openapi.ts';
import { buildSearchIndex } from './search-index.ts';
import { renderTwin } from './twin.ts';
import { rpcTwinSections } from './twin-rpc-sections.ts';
import { notFoundMarkdown, pagesInReadingOrder } from './write.ts';

// `astro dev` answers the surface URLs from the same generators the build uses, so authors
// see twins, llms.txt, search JSON and the OpenAPI document change as they edit.

interface DevOptions {
  /** The project root, under which the OpenAPI document's networks are read. */
  root: string;
  load: () => Promise<Site>;
  siteUrl: () => string;
  /** NODE_DOMAIN as the site is built with it: RPC pages' twins show the endpoint on it. */
  nodeDomain: string | null;
  inlineLimit: number;
  watcher: { on(event: 'all', listener: (event: string, path: string) => void): unknown };
}

export function surfaceDevMiddleware(options: DevOptions) {
  let site: Promise<Site> | undefined;
  options.watcher.on('all', (_event, path) => {
    if (/\.(mdx?|ya?ml)$/.test(path)) site = undefined;
  });
  return async (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => {
    try {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://dev').pathname);
      const answer = await answerSurfacePath(path, await (site ??= options.load()), options);
      if (!answer) return next();
      res.statusCode = answer.status;
      res.setHeader('Content-Type', answer.type);
      for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
      res.end(answer.body);
    } catch (error) {
      site = undefined;
      next(error);
    }
  };
}

type Answer = { status: number; type: string; body: string; headers?: Record<string, string> };

async function answerSurfacePath(path: string, site: Site, options: DevOptions): Promise<Answer | undefined> {
  const siteUrl = options.siteUrl();
  const llmsOptions = { siteUrl, inlineLimit: options.inlineLimit };
  if ((openApiDocumentPaths as readonly string[]).includes(path))
    return { status: 200, type: jsonType, body: await renderOpenApiDocument(options.root, siteUrl) };
  const search = /^\/api\/search\/([^/]+)$/.exec(path);
  if (search) {
    const locale = search[1]!;
    if (!isLocale(locale)) return undefined; // the API router answers with its structured 404, as in production
    return { status: 200, type: jsonType, body: JSON.stringify(buildSearchIndex(site, locale, siteUrl)) };
  }
  const rpcSections = () => rpcTwinSections(site, siteUrl, options.nodeDomain);
  for (const locale of locales) {
    if (path === llmsUrl(locale)) return { status: 200, type: plainTextType, body: renderLlmsTxt(site, locale, llmsOptions) };
    if (path === llmsFullUrl(locale)) {
      const sections = rpcSections();
      return {
        status: 200,
        type: plainTextType,
        body: pagesInReadingOrder(site, locale)
          .map((p) => renderTwin(p, siteUrl, sections))
          .join('\n'),
      };
    }
    for (const section of sections) {
      if (path === sectionLlmsUrl(locale, section)) return { status: 200, type: plainTextType, body: renderSectionLlmsTxt(site, locale, section, llmsOptions) };
    }
  }
  if (path.endsWith('.md')) {
    const page = site.pages.find((p) => p.twinUrl === path);
    if (!page) return { status: 404, type: markdownType, body: notFoundMarkdown(siteUrl) };
    const body = renderTwin(page, siteUrl, rpcSections());
    return { status: 200, type: markdownType, body, headers: { Link: canonicalLink(siteUrl, page.url) } };
  }
  return undefined;
}
