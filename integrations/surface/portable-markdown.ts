import type { BlockContent, Code, Heading, Paragraph, PhrasingContent, Root, RootContent } from 'mdast';
import type {} from 'mdast-util-mdx';
import type { MdxJsxAttribute, MdxJsxFlowElement, MdxJsxTextElement } from 'mdast-util-mdx-jsx';
import remarkGfm from 'remark-gfm';
import remarkMdx from 'remark-mdx';
import remarkStringify, { type Options as StringifyOptions } from 'remark-stringify';
import { markdownToMdast, mdxToMdast } from 'satteri';
import { unified, type Processor } from 'unified';

// Turns a page body (markdown or MDX) into portable CommonMark + GFM for `.md` twins
// (docs/website.md#markdown-twins): MDX imports/exports and expressions removed, the site's components turned
// into plain markdown, raw HTML dropped, relative links and images made absolute.
//
// Parsing is satteri's (the native parser Astro renders the pages with): it gives the same mdast
// as remark-parse with remark-gfm and remark-mdx, which remark-stringify writes out byte for byte
// alike, at about a third of the CPU; the twins run beside Astro's build on the same cores.

export interface PortableOptions {
  format: 'md' | 'mdx';
  /** Absolute URL of the page; relative links resolve against it. */
  baseUrl: string;
}

export const stringifyOptions: StringifyOptions = { bullet: '-', emphasis: '_', strong: '*', fences: true, rule: '-', listItemIndent: 'one' };
// The body comes without its frontmatter: a leading `---` is a thematic break.
const parseOptions = { features: { gfm: true, frontmatter: false }, position: false };

type Stringifier = Processor<Root, undefined, undefined, Root, string>;
let mdStringifier: Stringifier | undefined;
let mdxStringifier: Stringifier | undefined;

// remark-gfm teaches the serializer GFM tables; remark-mdx MDX nodes and MDX's escapes (only for MDX).
function stringifierFor(format: 'md' | 'mdx'): Stringifier {
  if (format === 'mdx') return (mdxStringifier ??= unified().use(remarkMdx).use(remarkGfm).use(remarkStringify, stringifyOptions).freeze() as never);
  return (mdStringifier ??= unified().use(remarkGfm).use(remarkStringify, stringifyOptions).freeze() as never);
}

/** A page body's mdast (GFM, and MDX for `.mdx`). */
export function parseBody(body: string, format: 'md' | 'mdx'): Root {
  return (format === 'mdx' ? mdxToMdast(body, parseOptions) : markdownToMdast(body, parseOptions)) as Root;
}

export function toPortableMarkdown(body: string, options: PortableOptions): string {
  const tree = parseBody(body, options.format);
  // Children are rewritten bottom-up so nested components (a callout inside a tab) come out right.
  rewriteChildren(tree, options.baseUrl, 1);
  return `${String(stringifierFor(options.format).stringify(tree)).trimEnd()}\n`;
}

const calloutLabels: Record<string, string> = { note: 'Note', tip: 'Tip', warning: 'Warning', danger: 'Danger', caution: 'Warning', info: 'Note' };

type Parent = { children: RootContent[] };
type JsxElement = MdxJsxFlowElement | MdxJsxTextElement;

function rewriteChildren(parent: Parent, baseUrl: string, headingDepth: number): void {
  const out: RootContent[] = [];
  let depth = headingDepth;
  for (const node of parent.children) {
    if (node.type === 'heading') depth = node.depth;
    for (const replaced of rewriteNode(node, baseUrl, depth)) out.push(replaced);
  }
  parent.children = out;
}

function rewriteNode(node: RootContent, baseUrl: string, headingDepth: number): RootContent[] {
  switch (node.type) {
    case 'mdxjsEsm':
    case 'mdxFlowExpression':
    case 'mdxTextExpression':
    case 'html':
      return [];
    case 'mdxJsxFlowElement':
    case 'mdxJsxTextElement':
      return componentToMarkdown(node, baseUrl, headingDepth);
    case 'link':
    case 'image':
    case 'definition':
      node.url = absolutize(node.url, baseUrl);
      break;
  }
  if ('children' in node) rewriteChildren(node as Parent, baseUrl, headingDepth);
  return [node];
}

function componentToMarkdown(node: JsxElement, baseUrl: string, headingDepth: number): RootContent[] {
  rewriteChildren(node as Parent, baseUrl, headingDepth);
  const children = node.children as RootContent[];
  switch (node.name) {
    case 'Callout': {
      const type = attribute(node, 'type') ?? 'note';
      const label = attribute(node, 'title') ?? calloutLabels[type] ?? 'Note';
      const lead: PhrasingContent[] = [{ type: 'strong', children: [{ type: 'text', value: `${label}:` }] }];
      const blocks = children as BlockContent[];
      const first = blocks[0];
      if (first?.type === 'paragraph') first.children.unshift(...lead, { type: 'text', value: ' ' });
      else blocks.unshift({ type: 'paragraph', children: lead } satisfies Paragraph);
      return [{ type: 'blockquote', children: blocks }];
    }
    case 'Tabs':
      // Each Tab already became a heading followed by its content.
      return children;
    case 'Tab': {
      const heading: Heading = {
        type: 'heading',
        depth: Math.min(6, headingDepth + 1) as Heading['depth'],
        children: [{ type: 'text', value: attribute(node, 'label') ?? 'Tab' }],
      };
      return [heading, ...children];
    }
    case 'CodeGroup':
      return children.filter((child): child is Code => child.type === 'code');
    default:
      // Unknown components keep their content, never their tags.
      return children;
  }
}

function attribute(node: JsxElement, name: string): string | undefined {
  const attr = node.attributes.find((a): a is MdxJsxAttribute => a.type === 'mdxJsxAttribute' && a.name === name);
  return typeof attr?.value === 'string' ? attr.value : undefined;
}

const hasScheme = /^[a-z][a-z0-9+.-]*:/i;

/** Site-relative and page-relative URLs become absolute; `mailto:`, `https:` and the like stay. */
export function absolutize(url: string, baseUrl: string): string {
  if (!url || hasScheme.test(url) || url.startsWith('//')) return url;
  return new URL(url, baseUrl).href;
}
