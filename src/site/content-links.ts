import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { htmlToHast, type HastPluginDefinition, type MdxJsxFlowElementHast, type MdxJsxTextElementHast, type PluginFactoryContext } from 'satteri';
import { visit } from 'unist-util-visit';
import type { PageRecord } from './records.ts';
import { htmlFileOf } from './urls.ts';

// Internal links in content must lead somewhere. Each page's links are collected in the render
// its HTML is made from (src/site/markdown.ts), with their lines: Markdown links, `<a href>` in
// raw HTML, and `href` on MDX elements. Once the build has written everything, the surface
// integration checks them against dist/: the path must be a page or a file there (twins,
// llms.txt and images included), spelled as the server serves it, and a `#fragment` an id on
// that HTML page. External links (any scheme, or `//host`) are not followed.

/** A page's links as written, kept until the build is done: hrefs and their lines (0 where unknown) side by side, not an object per link. */
interface PageLinks {
  hrefs: string[];
  lines: number[];
}

interface BrokenLink {
  /** The page's source file, as messages name it. */
  file: string;
  line: number;
  href: string;
  reason: string;
}

// Astro renders the pages from its own bundle of this module, and the integration imports
// another copy, in the same process: the two meet here. Pages by their absolute path; each
// href kept once however many pages link it (a 10,000-page site has about 10 links a page,
// to a tenth as many places).
interface RenderedLinks {
  pages: Map<string, PageLinks>;
  hrefs: Map<string, string>;
}
const renderedLinksKey = Symbol.for('crucible.renderedContentLinks');
const rendered: RenderedLinks = ((globalThis as { [renderedLinksKey]?: RenderedLinks })[renderedLinksKey] ??= { pages: new Map(), hrefs: new Map() });

/** `https://…`, `mailto:…`, `//host/…`: somewhere else, not checked. */
const isExternal = (href: string) => /^[a-z][a-z\d+.-]*:|^\/\//i.test(href);

/** A hast plugin (one per rendered file) that records the file's internal links for checkContentLinks. */
export function collectContentLinks({ fileURL }: PluginFactoryContext): HastPluginDefinition | undefined {
  if (!fileURL) return undefined;
  const file = fileURLToPath(fileURL);
  const links: PageLinks = { hrefs: [], lines: [] };
  const add = (href: unknown, line: number | undefined) => {
    if (typeof href !== 'string' || isExternal(href)) return;
    let kept = rendered.hrefs.get(href);
    if (kept === undefined) rendered.hrefs.set(href, (kept = href));
    links.hrefs.push(kept);
    links.lines.push(line ?? 0);
  };
  const fromJsx = {
    filter: [],
    visit: (node: MdxJsxFlowElementHast | MdxJsxTextElementHast) => {
      for (const attribute of node.attributes) {
        // Computed values are names or literals (content-safety.ts); only written strings are followed.
        if (attribute.type === 'mdxJsxAttribute' && attribute.name === 'href') add(attribute.value, node.position?.start.line);
      }
    },
  };
  return {
    name: 'crucible:content-links',
    options: { position: true },
    element: { filter: ['a'], visit: (node) => add(node.properties.href, node.position?.start.line) },
    raw: (node) => {
      const start = node.position?.start.line;
      visit(htmlToHast(node.value, { fragment: true }), 'element', (element) => {
        if (element.tagName !== 'a' || typeof element.properties.href !== 'string') return;
        // The parser keeps no positions: the line is where the href is written, when it is written as read.
        const at = node.value.indexOf(element.properties.href);
        add(element.properties.href, start === undefined ? undefined : start + (at === -1 ? 0 : node.value.slice(0, at).split('\n').length - 1));
      });
    },
    mdxJsxFlowElement: fromJsx,
    mdxJsxTextElement: fromJsx,
    after: () => {
      rendered.pages.set(file, links);
    },
  };
}

/** What the build wrote: its folder, and whether a file is there (a `/`-separated path relative to it, as the server looks it up). */
export interface BuiltFiles {
  readonly dir: string;
  has(file: string): boolean;
}

/** The links of every page, as rendered in this process, against the files of the built site. */
function brokenContentLinks(input: { pages: PageRecord[]; root: string; files: BuiltFiles }): BrokenLink[] {
  const built = builtSite(input.files);
  const broken: BrokenLink[] = [];
  for (const page of input.pages) {
    const links = rendered.pages.get(resolve(input.root, page.sourcePath));
    if (!links) throw new Error(`${page.sourcePath}: its links were not collected: the page was not rendered by this build's process`);
    links.hrefs.forEach((href, i) => {
      const reason = built.problemWith(href, page.url);
      if (reason) broken.push({ file: page.sourcePath, line: links.lines[i]!, href, reason });
    });
  }
  return broken;
}

/** Fails the build, naming the file, the line and the link, when a page links to nothing. */
export function checkContentLinks(input: { pages: PageRecord[]; root: string; files: BuiltFiles }): void {
  const broken = brokenContentLinks(input);
  if (!broken.length) return;
  const listed = broken.map(({ file, line, href, reason }) => `  ${file}: ${line ? `line ${line}: ` : ''}link "${href}": ${reason}`);
  const message = `Broken links in content (${broken.length}):\n${listed.join('\n')}`;
  // The list is the message; a stack trace would only bury it.
  throw Object.assign(new Error(message), { stack: message });
}

/** A site path as the URL parser leaves it: no dot segments, nothing to decode or resolve. */
const plainPath = /^\/(?:[\w~.-]+\/)*[\w~.-]*$/;
const dotSegment = /(?:^|\/)\.\.?(?:\/|$)/;

/** Path and fragment of a link from the page at `pageUrl`, decoded; undefined when the href is no URL. */
function resolveLink(href: string, pageUrl: string): { path: string; fragment: string } | undefined {
  // Nearly every link is a plain absolute path, which the parser would return as it is.
  if (plainPath.test(href) && !dotSegment.test(href)) return { path: href, fragment: '' };
  try {
    const url = new URL(href, new URL(pageUrl, 'https://site.invalid'));
    return { path: decodeURI(url.pathname), fragment: decodeURIComponent(url.hash.slice(1)) };
  } catch {
    return undefined;
  }
}

/** What the built site serves, looked up as links need it; anchors are read only from pages a fragment points into. */
function builtSite(files: BuiltFiles) {
  const isPage = (path: string) => files.has(htmlFileOf(path));
  const exists = (path: string) => isPage(path) || (!path.endsWith('/') && files.has(path.slice(1)));
  const anchors = new Map<string, Set<string>>();
  const anchorsOf = (path: string) => {
    let ids = anchors.get(path);
    if (!ids) anchors.set(path, (ids = anchorsIn(readFileSync(join(files.dir, htmlFileOf(path)), 'utf8'))));
    return ids;
  };
  /** Answers for absolute hrefs, which mean the same from every page. */
  const absolute = new Map<string, string | undefined>();

  const problemWith = (href: string, pageUrl: string): string | undefined => {
    const link = resolveLink(href, pageUrl);
    if (!link) return 'not a valid URL';
    const { path, fragment } = link;
    if (!exists(path)) {
      const otherSpelling = path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
      return `no page or file at ${path}${isPage(otherSpelling) ? ` (the page is ${otherSpelling})` : ''}`;
    }
    if (!fragment || !isPage(path)) return undefined;
    return anchorsOf(path).has(fragment) ? undefined : `no heading or anchor "${fragment}" on ${path}`;
  };

  return {
    /** Why a link from the page at `pageUrl` leads nowhere, or undefined when it leads somewhere. */
    problemWith(href: string, pageUrl: string): string | undefined {
      if (!href.startsWith('/')) return problemWith(href, pageUrl);
      if (!absolute.has(href)) absolute.set(href, problemWith(href, pageUrl));
      return absolute.get(href);
    },
  };
}

/** The ids a fragment can land on: every element's id, and the name of `<a name>`. */
function anchorsIn(html: string): Set<string> {
  const ids = new Set<string>();
  visit(htmlToHast(html), 'element', (element) => {
    const { id, name } = element.properties;
    if (typeof id === 'string') ids.add(id);
    if (element.tagName === 'a' && typeof name === 'string') ids.add(name);
  });
  return ids;
}
