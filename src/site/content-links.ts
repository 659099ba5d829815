import { readFile, stat } from 'node:fs/promises';
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
// llms.txt and images included), and a `#fragment` an id on that HTML page. External links
// (any scheme, or `//host`) are not followed.

/** A link as written in a page's source. */
interface ContentLink {
  href: string;
  line: number | undefined;
}

interface BrokenLink extends ContentLink {
  /** The page's source file, as messages name it. */
  file: string;
  reason: string;
}

// Astro renders the pages from its own bundle of this module, and the integration imports
// another copy, in the same process: the two meet here. Keyed by the page's absolute path.
const renderedLinksKey = Symbol.for('crucible.renderedContentLinks');
const renderedLinks = ((globalThis as { [renderedLinksKey]?: Map<string, ContentLink[]> })[renderedLinksKey] ??= new Map());

/** `https://…`, `mailto:…`, `//host/…`: somewhere else, not checked. */
const isExternal = (href: string) => /^[a-z][a-z\d+.-]*:|^\/\//i.test(href);

/** A hast plugin (one per rendered file) that records the file's internal links for checkContentLinks. */
export function collectContentLinks({ fileURL }: PluginFactoryContext): HastPluginDefinition | undefined {
  if (!fileURL) return undefined;
  const file = fileURLToPath(fileURL);
  const links: ContentLink[] = [];
  const add = (href: unknown, line: number | undefined) => {
    if (typeof href === 'string' && !isExternal(href)) links.push({ href, line });
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
      renderedLinks.set(file, links);
    },
  };
}

/** The links of every page, as rendered in this process, against the site built in `outDir`. */
async function brokenContentLinks(input: { pages: PageRecord[]; root: string; outDir: string }): Promise<BrokenLink[]> {
  const built = builtSite(input.outDir);
  const broken: BrokenLink[] = [];
  for (const page of input.pages) {
    const links = renderedLinks.get(resolve(input.root, page.sourcePath));
    if (!links) throw new Error(`${page.sourcePath}: its links were not collected: the page was not rendered by this build's process`);
    for (const link of links) {
      const reason = await built.problemWith(link.href, page.url);
      if (reason) broken.push({ ...link, file: page.sourcePath, reason });
    }
  }
  return broken;
}

/** Fails the build, naming the file, the line and the link, when a page links to nothing. */
export async function checkContentLinks(input: { pages: PageRecord[]; root: string; outDir: string }): Promise<void> {
  const broken = await brokenContentLinks(input);
  if (!broken.length) return;
  const listed = broken.map(({ file, line, href, reason }) => `  ${file}: ${line === undefined ? '' : `line ${line}: `}link "${href}": ${reason}`);
  const message = `Broken links in content (${broken.length}):\n${listed.join('\n')}`;
  // The list is the message; a stack trace would only bury it.
  throw Object.assign(new Error(message), { stack: message });
}

/** `read`, asked once per key: many links lead to the same few pages. */
function readOnce<T>(read: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const known = new Map<string, Promise<T>>();
  return (key) => {
    let answer = known.get(key);
    if (!answer) known.set(key, (answer = read(key)));
    return answer;
  };
}

/** What `outDir` serves, read as links need it. */
function builtSite(outDir: string) {
  const isFile = readOnce((relative) =>
    stat(join(outDir, relative)).then(
      (entry) => entry.isFile(),
      () => false,
    ),
  );
  const isPage = (path: string) => isFile(htmlFileOf(path));
  const exists = async (path: string) => (await isPage(path)) || (!path.endsWith('/') && (await isFile(path.slice(1))));
  const anchorsOf = readOnce((path) => readFile(join(outDir, htmlFileOf(path)), 'utf8').then(anchorsIn));

  return {
    /** Why a link from the page at `pageUrl` leads nowhere, or undefined when it leads somewhere. */
    async problemWith(href: string, pageUrl: string): Promise<string | undefined> {
      let path: string;
      let fragment: string;
      try {
        const url = new URL(href, new URL(pageUrl, 'https://site.invalid'));
        path = decodeURI(url.pathname);
        fragment = decodeURIComponent(url.hash.slice(1));
      } catch {
        return 'not a valid URL';
      }
      if (!(await exists(path))) {
        const otherSpelling = path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
        return `no page or file at ${path}${(await isPage(otherSpelling)) ? ` (the page is ${otherSpelling})` : ''}`;
      }
      if (!fragment || !(await isPage(path))) return undefined;
      return (await anchorsOf(path)).has(fragment) ? undefined : `no heading or anchor "${fragment}" on ${path}`;
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
