import { randomUUID } from 'node:crypto';
import type { JSXAttribute, JSXElement, JSXIdentifier, JSXNamespacedName, JSXSpreadAttribute } from 'estree-jsx';
import {
  htmlToHast,
  type EstreeProgram,
  type HastNode,
  type HastPluginDefinition,
  type MdxFlowExpressionHast,
  type MdxJsxAttributeUnion,
  type MdxJsxFlowElementHast,
  type MdxJsxTextElementHast,
  type MdxjsEsmHast,
  type MdxTextExpressionHast,
} from 'satteri';
import { SKIP, visit } from 'unist-util-visit';

// Content may not run script. Every page body is rendered by src/site/markdown.ts, and this check
// runs in that render, on the tree the HTML is made from: links and images, raw HTML as a
// browser's parser reads it (entities decoded), and MDX elements, including those written in
// `{…}` and exports, as written. A page's CSP allows its inline scripts by hash
// (integrations/surface/header-policy.ts), so a script in content would run; none gets through here.

type MdxCode = MdxFlowExpressionHast | MdxTextExpressionHast | MdxjsEsmHast;

/**
 * An attribute as written: a string, a value an expression computes, or a spread of unknown ones.
 * `readable` says whether any markup the expression holds is checked.
 */
type WrittenAttribute = { kind: 'string'; name: string; value: string } | { kind: 'expression'; name: string; readable: boolean } | { kind: 'spread' };

/** Elements whose content browsers read as text: markup in them is not what a parse into elements shows. */
const rawTextElements = new Set(['iframe', 'noembed', 'noframes', 'noscript', 'plaintext', 'style', 'textarea', 'title', 'xmp']);

/** Attributes a browser follows as URLs, where `javascript:` runs, and SVG animation values, which can set one. */
const urlAttributes = new Set(['href', 'src', 'action', 'formaction', 'xlinkhref', 'xlink:href', 'data', 'from', 'to', 'by', 'values']);

/** A hast plugin (one per page) that fails the render, listing by line everything that would run script. */
export function refuseScript(): HastPluginDefinition {
  const problems: Array<{ line: number | undefined; reason: string }> = [];
  const report = (node: { position?: { start: { line: number } } }, reasons: string[]) => {
    for (const reason of reasons) problems.push({ line: node.position?.start.line, reason });
  };
  const checkJsx = {
    filter: [],
    visit: (node: MdxJsxFlowElementHast | MdxJsxTextElementHast) => report(node, elementProblems(node.name ?? '', node.attributes.map(mdxAttribute))),
  };
  const checkCode = (node: MdxCode & { parseExpression(): EstreeProgram | null }) =>
    report(node, jsxElementsIn(node.parseExpression()).flatMap(jsxElementProblems));
  return {
    name: 'crucible:no-script',
    options: { position: true },
    raw: (node) => report(node, rawHtmlProblems(node.value)),
    // The elements Markdown's own syntax makes with a URL: links (inline, reference, autolink) and images.
    element: { filter: ['a', 'img'], visit: (node) => report(node, elementProblems(node.tagName, propertyAttributes(node.properties))) },
    mdxJsxFlowElement: checkJsx,
    mdxJsxTextElement: checkJsx,
    mdxFlowExpression: checkCode,
    mdxTextExpression: checkCode,
    mdxjsEsm: checkCode,
    after() {
      if (!problems.length) return;
      const listed = problems
        .sort((a, b) => (a.line ?? 0) - (b.line ?? 0))
        .map(({ line, reason }) => (line === undefined ? reason : `line ${line}: ${reason}`));
      throw new Error(`content may not run script: ${listed.join('; ')}`);
    },
  };
}

/** Why an element would run script, or hide markup that could. */
function elementProblems(name: string, attributes: WrittenAttribute[]): string[] {
  // Components start with a capital; the site's render their props as text.
  const intrinsic = /^[a-z]/.test(name);
  const problems = attributes.map((attribute) => attributeProblem(attribute, intrinsic)).filter((problem) => problem !== undefined);
  if (!intrinsic) return problems;
  const tag = name.toLowerCase().split(':').pop()!;
  if (tag === 'script') return ['<script> element', ...problems];
  if (rawTextElements.has(tag)) return [`<${tag}> element (browsers read its content as text, so markup in it is not what this check reads)`, ...problems];
  return problems;
}

function attributeProblem(attribute: WrittenAttribute, intrinsic: boolean): string | undefined {
  if (attribute.kind === 'spread') return 'spread attributes ({...}), which cannot be checked';
  const name = attribute.name.toLowerCase();
  if (intrinsic && name.startsWith('on')) return `event handler attribute "${attribute.name}"`;
  if (intrinsic && name === 'srcdoc') return `"${attribute.name}" attribute (a document of its own, which can hold script)`;
  // Astro's JSX runtime writes set:html as raw markup, on any element or component.
  if (name === 'set:html') return `"${attribute.name}" directive (raw HTML this check cannot read)`;
  if (attribute.kind === 'expression' && !attribute.readable)
    return `"${attribute.name}" computed by an expression other than a name or a literal, which cannot be checked`;
  if (!intrinsic || !urlAttributes.has(name)) return undefined;
  if (attribute.kind === 'expression') return `"${attribute.name}" computed by an expression, which cannot be checked for javascript: URLs`;
  return isJavaScriptUrl(attribute.value) ? `javascript: URL in "${attribute.name}"` : undefined;
}

/** As a browser reads a URL's scheme: tabs and newlines anywhere dropped, leading spaces and controls trimmed, any case. */
function isJavaScriptUrl(url: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers strip leading C0 controls and spaces from URLs
  return /^javascript:/i.test(url.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+/, ''));
}

// Appended to each block of raw HTML: if the parser does not read it as an element of its own,
// the block left a tag, comment or raw-text element open, and the page's next markup would be
// read as part of it, together with whatever the next block adds. Random, so content cannot forge it.
const endMark = `crucible-end-${randomUUID()}`;

/** Problems in one block of raw HTML, parsed as a browser parses it. */
function rawHtmlProblems(html: string): string[] {
  const tree = htmlToHast(`${html}<${endMark}></${endMark}>`, { fragment: true });
  const problems: string[] = [];
  let closed = false;
  visit(tree, 'element', (element) => {
    problems.push(...elementProblems(element.tagName, propertyAttributes(element.properties)));
  });
  visit(tree, 'element', (element) => {
    if (element.tagName === endMark) closed = true;
    // Foreign content reads what follows by other rules (a <style> there holds markup).
    else if (element.tagName === 'svg' || element.tagName === 'math') return SKIP;
  });
  if (!closed)
    problems.push('raw HTML left open at its end (a tag, comment, raw-text element, <svg> or <math>), which would change how the HTML after it is read');
  return problems;
}

type HastElement = Extract<HastNode, { type: 'element' }>;

/** A hast element's properties as HTML attributes (hast writes `onclick` as `onClick`; the parser has decoded entities). */
function propertyAttributes(properties: HastElement['properties']): WrittenAttribute[] {
  return Object.entries(properties).map(([name, value]) => ({
    kind: 'string',
    name: name.toLowerCase(),
    value: Array.isArray(value) ? value.join(' ') : String(value),
  }));
}

/** `{chain}`, `{frontmatter.title}`, `{"text"}`, `{42}`: a name (exports are checked where they are written) or a literal. */
const nameOrLiteral = /^\s*(?:[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*|"[^"\\]*"|'[^'\\]*'|-?\d+(?:\.\d+)?)\s*$/;

// The renderer does not parse an MDX attribute's `{…}` for us, so only expressions that cannot hold markup pass.
function mdxAttribute(attribute: MdxJsxAttributeUnion): WrittenAttribute {
  if (attribute.type === 'mdxJsxExpressionAttribute') return { kind: 'spread' };
  if (attribute.value !== null && typeof attribute.value === 'object')
    return { kind: 'expression', name: attribute.name, readable: nameOrLiteral.test(attribute.value.value) };
  return { kind: 'string', name: attribute.name, value: attribute.value ?? '' };
}

/** Every JSX element in an MDX expression or export: markup written as code is markup all the same. */
function jsxElementsIn(node: unknown): JSXElement[] {
  if (node === null || typeof node !== 'object') return [];
  const nested = Object.values(node).flatMap(jsxElementsIn);
  return (node as { type?: unknown }).type === 'JSXElement' ? [node as JSXElement, ...nested] : nested;
}

function jsxElementProblems(element: JSXElement): string[] {
  const { name, attributes } = element.openingElement;
  // A member expression (`<ui.Box>`) names a component.
  return elementProblems(name.type === 'JSXMemberExpression' ? '' : jsxName(name), attributes.map(jsxAttribute));
}

function jsxName(name: JSXIdentifier | JSXNamespacedName): string {
  return name.type === 'JSXIdentifier' ? name.name : `${name.namespace.name}:${name.name.name}`;
}

function jsxAttribute(attribute: JSXAttribute | JSXSpreadAttribute): WrittenAttribute {
  if (attribute.type === 'JSXSpreadAttribute') return { kind: 'spread' };
  const name = jsxName(attribute.name);
  if (attribute.value === null) return { kind: 'string', name, value: '' };
  if (attribute.value.type === 'Literal' && typeof attribute.value.value === 'string') return { kind: 'string', name, value: attribute.value.value };
  // Markup in the value is found by jsxElementsIn, which reads the whole expression.
  return { kind: 'expression', name, readable: true };
}
