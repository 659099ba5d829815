import type { BlockContent, Code, Heading, Paragraph, PhrasingContent, Root, RootContent } from 'mdast';
import type {} from 'mdast-util-mdx';
import type { MdxJsxAttribute, MdxJsxFlowElement, MdxJsxTextElement } from 'mdast-util-mdx-jsx';
import remarkGfm from 'remark-gfm';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import remarkStringify, { type Options as StringifyOptions } from 'remark-stringify';
import { unified, type Processor } from 'unified';

// Turns a page body (markdown or MDX) into portable CommonMark + GFM for `.md` twins
// (spec 2.7): MDX imports/exports and expressions removed, the site's components turned
// into plain markdown, raw HTML dropped, relative links and images made absolute.

export interface PortableOptions {
  format: 'md' | 'mdx';
  /** Absolute URL of the page; relative links resolve against it. */
  baseUrl: string;
}

const stringifyOptions: StringifyOptions = { bullet: '-', emphasis: '_', strong: '*', fences: true, rule: '-', listItemIndent: 'one' };

let mdProcessor: Processor<Root, undefined, undefined, Root, string> | undefined;
let mdxProcessor: Processor<Root, undefined, undefined, Root, string> | undefined;

function processorFor(format: 'md' | 'mdx') {
  if (format === 'mdx') {
    mdxProcessor ??= unified().use(remarkParse).use(remarkMdx).use(remarkGfm).use(remarkStringify, stringifyOptions).freeze() as never;
    return mdxProcessor!;
  }
  mdProcessor ??= unified().use(remarkParse).use(remarkGfm).use(remarkStringify, stringifyOptions).freeze() as never;
  return mdProcessor!;
}

export function toPortableMarkdown(body: string, options: PortableOptions): string {
  const processor = processorFor(options.format);
  const tree = processor.parse(body) as Root;
  // Children are rewritten bottom-up so nested components (a callout inside a tab) come out right.
  rewriteChildren(tree, options.baseUrl, 1);
  return String(processor.stringify(tree)).trimEnd() + '\n';
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
