import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  satteri,
  satteriCollectImagesPlugin,
  satteriCreateHighlightFn,
  satteriHeadingIdsPlugin,
  satteriHighlightPlugin,
  type SatteriMarkdownProcessorOptions,
} from '@astrojs/markdown-satteri';
import type { MarkdownHeading } from 'astro';
import * as jsxRuntime from 'astro/jsx-runtime';
import { mdxToJs, type HastPluginDefinition, type PluginFactoryContext } from 'satteri';
import { codeTitleTransformer } from './shiki-code-title.ts';
import { collectContentLinks } from './content-links.ts';
import { refuseScript } from './content-safety.ts';
import { splitFrontmatter } from './read-content.ts';

// How pages' bodies become HTML, when each HTML page is prerendered: nothing rendered is kept
// in Astro's content store (src/site/pages-loader.ts), and no page becomes a module the build
// has to bundle. `.md` pages go through Astro's own Markdown processor; `.mdx` pages through
// the same compiler Astro's MDX integration uses (satteri), evaluated in place. astro.config.mjs
// hands Astro the same options, for anything Astro renders itself. Both refuse content that
// would run script (src/site/content-safety.ts) and record internal links for the build's link
// check (src/site/content-links.ts).

/** The content checks in one plugin: satteri walks the tree once per plugin and once more for each `after`, and materialises each matched node per plugin. */
const contentChecks = (context: PluginFactoryContext): HastPluginDefinition =>
  inOneTraversal('crucible:content-checks', [refuseScript(), collectContentLinks(context)]);

const processor = satteri({ features: { gfm: true, smartPunctuation: true }, hastPlugins: [contentChecks] });

export const markdownOptions = {
  processor,
  syntaxHighlight: { type: 'shiki', excludeLangs: ['math'] },
  shikiConfig: { themes: { light: 'github-light-default', dark: 'github-dark-default' }, transformers: [codeTitleTransformer] },
} satisfies SatteriMarkdownProcessorOptions & { processor: typeof processor };

/** A rendered page body: HTML for Markdown, a component (taking the MDX components) for MDX. */
export type PageBody = { headings: MarkdownHeading[] } & ({ html: string; Content?: undefined } | { Content: MdxContent; html?: undefined });
type MdxContent = (props?: { components?: Record<string, unknown> }) => unknown;

let markdownRenderer: ReturnType<typeof processor.createRenderer> | undefined;
let highlighter: ReturnType<typeof satteriCreateHighlightFn> | undefined;

/** Renders a page file (path relative to the project root); errors name the file. */
export async function renderPageBody(filePath: string): Promise<PageBody> {
  const absolute = resolve(process.cwd(), filePath);
  try {
    const source = await readFile(absolute, 'utf8');
    const { data, body } = splitFrontmatter(source);
    const frontmatter = (data ?? {}) as Record<string, unknown>;
    const bodyAtItsLines = atItsLines(body, source);
    return await (filePath.endsWith('.mdx') ? renderMdx(bodyAtItsLines, absolute, frontmatter) : renderMarkdown(bodyAtItsLines, absolute, frontmatter));
  } catch (error) {
    throw new Error(`${filePath}: ${(error as Error).message}`, { cause: error });
  }
}

/** The body after blank lines standing in for the frontmatter, so the lines errors name are the file's. */
function atItsLines(body: string, source: string): string {
  // The body is the end of the file.
  const linesBefore = source.slice(0, source.length - body.length).split('\n').length - 1;
  return '\n'.repeat(linesBefore) + body;
}

async function renderMarkdown(body: string, absolute: string, frontmatter: Record<string, unknown>): Promise<PageBody> {
  markdownRenderer ??= processor.createRenderer({ syntaxHighlight: markdownOptions.syntaxHighlight, shikiConfig: markdownOptions.shikiConfig });
  const { code, metadata } = await (await markdownRenderer).render(body, { fileURL: pathToFileURL(absolute), frontmatter });
  refuseRelativeImages(metadata.localImagePaths);
  return { html: code, headings: metadata.headings };
}

// Astro's image pipeline only runs on modules it bundles; say so rather than ship a broken <img>.
function refuseRelativeImages(paths: Iterable<string>): void {
  const relative = [...paths];
  if (relative.length)
    throw new Error(`relative image paths (${relative.join(', ')}) are not supported; put images under public/ and link them from the site root`);
}

// The site's MDX components come without importing (src/components/mdx/); a page evaluated in
// place has nothing to import from, so an import would silently render nothing.
const refuseImports = {
  name: 'crucible:no-imports',
  mdxjsEsm(node: { value: string }) {
    if (/^\s*import\b/m.test(node.value))
      throw new Error(
        `imports are not supported in MDX pages (${node.value.trim().split('\n')[0]}); the site's components (Callout, Tabs, Tab, CodeGroup) need no import`,
      );
  },
};

async function renderMdx(body: string, absolute: string, frontmatter: Record<string, unknown>): Promise<PageBody> {
  highlighter ??= satteriCreateHighlightFn(markdownOptions.syntaxHighlight, markdownOptions.shikiConfig);
  const highlight = await highlighter;
  const astro = { frontmatter, headings: [] as MarkdownHeading[], localImagePaths: new Set<string>(), remoteImagePaths: new Set<string>() };
  const compiled = await mdxToJs(body, {
    mdastPlugins: [satteriCollectImagesPlugin(), refuseImports],
    hastPlugins: [
      contentChecks,
      ...(highlight ? [satteriHighlightPlugin(highlight, markdownOptions.syntaxHighlight.excludeLangs)] : []),
      satteriHeadingIdsPlugin(),
    ],
    features: processor.options.features,
    fileURL: pathToFileURL(absolute),
    elementAttributeNameCase: 'html',
    outputFormat: 'function-body',
    data: { astro },
  });
  refuseRelativeImages(astro.localImagePaths);
  // The function body reads the runtime from arguments[0]; `frontmatter` is in scope as in an
  // @astrojs/mdx module, which exports it.
  const { default: MDXContent } = new Function('runtime', 'frontmatter', compiled.code)(jsxRuntime, frontmatter) as { default: MdxContent };
  // Wrapped and marked as @astrojs/mdx marks a compiled file (vite-plugin-mdx-postprocess.js), so
  // Astro renders it with the JSX renderer that integration registers.
  const Content: MdxContent = (props = {}) => MDXContent({ ...props, components: { Fragment: jsxRuntime.Fragment, ...props.components } });
  Object.assign(Content, { [Symbol.for('mdx-component')]: true, [Symbol.for('astro.needsHeadRendering')]: true });
  Object.defineProperty(Content, Symbol.for('astro:renderer'), { value: 'astro:jsx' });
  return { Content, headings: astro.headings };
}

type Visited = { tagName?: string; name?: string | null };
type FilteredVisitor = { filter: string[]; visit: (node: Visited, context: never) => unknown };
type NodeVisitor = (node: never, context: never) => unknown;

// The visitor keys of a hast plugin: filtered by tag or component name, or called for every node of their type.
const filteredKeys = ['element', 'mdxJsxFlowElement', 'mdxJsxTextElement'] as const;
const nodeKeys = ['text', 'comment', 'raw', 'doctype', 'mdxFlowExpression', 'mdxTextExpression', 'mdxjsEsm', 'before', 'after'] as const;

/** Each visitor in turn; a promise if any of them is asynchronous. */
function visitAll<A extends unknown[]>(visitors: Array<(...args: A) => unknown>, ...args: A): Promise<void> | undefined {
  const pending = visitors.map((visitor) => visitor(...args)).filter((result) => result instanceof Promise);
  return pending.length ? Promise.all(pending).then(() => undefined) : undefined;
}

/**
 * Plugins that only read the tree (their visitors return no replacement) as one: each node
 * matched once, and handed to every visitor whose filter takes it, in the plugins' order.
 */
function inOneTraversal(name: string, plugins: Array<HastPluginDefinition | undefined>): HastPluginDefinition {
  const present = plugins.filter((plugin) => plugin !== undefined);
  const combined: Record<string, unknown> = { name, options: { position: present.some((plugin) => plugin.options?.position) } };
  for (const key of filteredKeys) {
    const visitors = present.flatMap((plugin) => [plugin[key] ?? []].flat() as FilteredVisitor[]);
    if (!visitors.length) continue;
    const takes = (node: Visited) => visitors.filter(({ filter }) => !filter.length || filter.includes(node.tagName ?? node.name ?? ''));
    combined[key] = {
      filter: visitors.some(({ filter }) => !filter.length) ? [] : [...new Set(visitors.flatMap(({ filter }) => filter))],
      visit: (node: Visited, context: never) =>
        visitAll(
          takes(node).map(({ visit }) => visit),
          node,
          context,
        ),
    };
  }
  for (const key of nodeKeys) {
    const visitors = present.map((plugin) => plugin[key] as NodeVisitor | undefined).filter((visitor) => visitor !== undefined);
    if (visitors.length) combined[key] = (node: never, context: never) => visitAll(visitors, node, context);
  }
  return combined as unknown as HastPluginDefinition;
}
