import { z } from 'zod';
import { defaultLocale, locales } from '../../site/locales.ts';
import { sections, type Section } from '../../site/sections.ts';
import { homeUrl, llmsFullUrl, llmsUrl, pageUrl, sectionLlmsUrl, twinUrl } from '../../site/urls.ts';
import type { DescribedOperation, ResponseSpec } from '../operation.ts';

// The prerendered surface (docs/website.md#markdown-twins, docs/website.md#text-indexes) as operations of the OpenAPI document. The server
// answers these from dist/ under the rules of src/server/; nothing here handles a request.
// Paths come from src/site/urls.ts with template parameters in place of slugs and locales.

const markdown = 'text/markdown';
const text = z.string();

const prefixedLocales = locales.filter((locale) => locale !== defaultLocale);
const LocalePrefix = z.enum(prefixedLocales as [string, ...string[]]).describe('A non-default locale; English pages have no prefix.');
const Slug = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
  .describe('Page slug, as listed in llms.txt.');

const notModified: ResponseSpec = { description: 'Not modified (If-None-Match matched the ETag).' };
const etag = { description: 'Strong validator.', schema: z.string() };

function twinResponses(home: boolean): Record<number, ResponseSpec> {
  const responses: Record<number, ResponseSpec> = {
    200: {
      description: 'The page as markdown: YAML frontmatter (title, description), an H1, then the body (docs/website.md#markdown-twins).',
      content: { [markdown]: text },
      headers: { Link: { description: 'The HTML representation: `<absolute URL>; rel="canonical"`.', schema: z.string() }, ETag: etag },
    },
    304: notModified,
  };
  if (!home) responses[404] = { description: 'No such page: a markdown body pointing at /llms.txt and /sitemap.xml.', content: { [markdown]: text } };
  return responses;
}

const htmlResponses: Record<number, ResponseSpec> = {
  200: {
    description: 'The HTML page; `Vary: Accept` because the same URL may redirect to the twin.',
    content: { 'text/html': undefined },
    headers: { Vary: { description: 'Accept, Accept-Encoding', schema: z.string() }, ETag: etag },
  },
  304: notModified,
  307: {
    description: 'The Accept header prefers text/markdown over text/html (by q-value): redirect to the `.md` twin.',
    headers: {
      Location: { description: 'The `.md` URL of this page.', schema: z.string() },
      Vary: { description: 'Accept', schema: z.string() },
    },
  },
  404: { description: 'No such page: the HTML 404 page.', content: { 'text/html': undefined } },
};

function textResponses(mediaType: string, what: string, missing?: string): Record<number, ResponseSpec> {
  const responses: Record<number, ResponseSpec> = {
    200: { description: what, content: { [mediaType]: text }, headers: { ETag: etag } },
    304: notModified,
  };
  if (missing) responses[404] = { description: missing, content: { 'text/html': undefined } };
  return responses;
}

/** `/ja/blog/x` -> `/{locale}/blog/{slug}`: the URL helpers with parameters in place of values. */
const asTemplate = (path: string) => path.replace(/^\/ja\//, '/{locale}/').replace('/__slug__', '/{slug}');
const sample = (prefixed: boolean) => (prefixed ? 'ja' : defaultLocale);

export function surfaceOperations(): DescribedOperation[] {
  const operations: DescribedOperation[] = [];
  for (const prefixed of [false, true]) {
    const locale = sample(prefixed);
    const where = prefixed ? ' (translation)' : '';
    const localeParams = prefixed ? { locale: LocalePrefix } : {};
    const id = (name: string) => `${name}${prefixed ? 'Localized' : ''}`;

    operations.push(
      {
        operationId: id('getHomeMarkdown'),
        method: 'GET',
        path: asTemplate(twinUrl(homeUrl(locale))),
        summary: `Homepage as markdown${where}`,
        tags: ['Markdown twins'],
        ...(prefixed ? { params: z.object(localeParams) } : {}),
        responses: twinResponses(!prefixed),
      },
      {
        operationId: id('getHomePage'),
        method: 'GET',
        path: asTemplate(homeUrl(locale)),
        summary: `Homepage${where}`,
        description: 'HTML, or a 307 to the markdown twin when Accept prefers text/markdown (docs/website.md#markdown-twins).',
        tags: ['Pages'],
        ...(prefixed ? { params: z.object(localeParams) } : {}),
        responses: htmlResponses,
      },
      {
        operationId: id('getLlmsTxt'),
        method: 'GET',
        path: asTemplate(llmsUrl(locale)),
        summary: `llms.txt: every page by section${where}`,
        description: 'One line per page: title, `.md` URL, one-sentence description; long sections are split into `/<section>/llms.txt`, linked from here.',
        tags: ['Text indexes'],
        ...(prefixed ? { params: z.object(localeParams) } : {}),
        responses: textResponses('text/plain', 'The llms.txt index.', prefixed ? 'No such locale.' : undefined),
      },
      {
        operationId: id('getLlmsFullTxt'),
        method: 'GET',
        path: asTemplate(llmsFullUrl(locale)),
        summary: `llms-full.txt: every page body in one file${where}`,
        description: 'Large (docs/website.md#text-indexes): prefer llms.txt plus per-page `.md` fetches.',
        tags: ['Text indexes'],
        ...(prefixed ? { params: z.object(localeParams) } : {}),
        responses: textResponses('text/plain', 'Every page as markdown, concatenated.', prefixed ? 'No such locale.' : undefined),
      },
    );

    for (const section of sections) {
      const params = z.object({ ...localeParams, slug: Slug });
      const page = pageUrl(locale, section, '__slug__');
      const name = sectionName(section);
      operations.push(
        {
          operationId: id(`get${name}Markdown`),
          method: 'GET',
          path: asTemplate(twinUrl(page)),
          summary: `A /${section}/ page as markdown${where}`,
          tags: ['Markdown twins'],
          params,
          responses: twinResponses(false),
        },
        {
          operationId: id(`get${name}Page`),
          method: 'GET',
          path: asTemplate(page),
          summary: `A /${section}/ page${where}`,
          description: 'HTML, or a 307 to the markdown twin when Accept prefers text/markdown (docs/website.md#markdown-twins).',
          tags: ['Pages'],
          params,
          responses: htmlResponses,
        },
        {
          operationId: id(`get${name}LlmsTxt`),
          method: 'GET',
          path: asTemplate(sectionLlmsUrl(locale, section)),
          summary: `llms.txt of the /${section}/ section${where}`,
          tags: ['Text indexes'],
          ...(prefixed ? { params: z.object(localeParams) } : {}),
          responses: textResponses('text/plain', 'Every page of the section, one line each.', 'The section has no pages in this locale.'),
        },
      );
    }
  }

  operations.push(
    {
      operationId: 'getSitemap',
      method: 'GET',
      path: '/sitemap.xml',
      summary: 'Sitemap index',
      description: 'A standard sitemap index over sitemap files of at most 50,000 URLs; each URL lists hreflang alternates. Twins are excluded.',
      tags: ['Text indexes'],
      responses: textResponses('application/xml', 'The sitemap index.'),
    },
    {
      operationId: 'getSitemapFile',
      method: 'GET',
      path: '/sitemap-{index}.xml',
      summary: 'One sitemap file of the index',
      tags: ['Text indexes'],
      params: z.object({ index: z.string().regex(/^\d+$/).describe('0-based file number, as listed in /sitemap.xml.') }),
      responses: textResponses('application/xml', 'A sitemap of at most 50,000 URLs.', 'No such file.'),
    },
  );
  return operations;
}

function sectionName(section: Section): string {
  return section.replace(/(^|-)([a-z])/g, (_match, _dash, letter: string) => letter.toUpperCase());
}
