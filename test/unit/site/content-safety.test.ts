import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPageBody } from '../../../src/site/markdown.ts';

// Every page body is rendered by renderPageBody; content that would run script in the browser
// fails there, naming the file, the line and the reason.

let dir: string;
let count = 0;
/** A page file whose body starts on line 5. */
const page = async (extension: 'md' | 'mdx', body: string) => {
  const path = join(dir, `page-${count++}.${extension}`);
  await writeFile(path, `---\ntitle: A page\ndescription: For the script check.\n---\n${body}`);
  return path;
};
const refusal = (path: string, ...problems: string[]) => `${path}: content may not run script: ${problems.join('; ')}`;
const rawText = 'element (browsers read its content as text, so markup in it is not what this check reads)';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crucible-content-safety-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('content that would run script', () => {
  it.each([
    ['md', 'a raw script', '<script>alert(1)</script>\n', '<script> element'],
    ['md', 'a script in any case, with a src', '<SCRIPT SRC="https://evil.example/x.js"></SCRIPT>\n', '<script> element'],
    ['md', 'an SVG script', '<svg>\n<script>alert(1)</script>\n</svg>\n', '<script> element'],
    ['md', 'an event handler in a block', '<div onclick="alert(1)">\n', 'event handler attribute "onclick"'],
    ['md', 'an event handler inline, in any case', 'Text <img src="/x.png" OnError="alert(1)"> more.\n', 'event handler attribute "onerror"'],
    ['md', 'a javascript: link', '[click](javascript:alert(1))\n', 'javascript: URL in "href"'],
    ['md', 'a javascript: link in mixed case', '[click](JaVaScRiPt:alert(1))\n', 'javascript: URL in "href"'],
    ['md', 'an entity-obfuscated javascript: link', '[click](jav&#x61;script:alert(1))\n', 'javascript: URL in "href"'],
    ['md', 'a javascript: link through a definition', '[click][x]\n\n[x]: javascript:alert(1)\n', 'javascript: URL in "href"'],
    ['md', 'a javascript: autolink', '<javascript:alert(1)>\n', 'javascript: URL in "href"'],
    ['md', 'a javascript: image', '![x](javascript:alert(1))\n', 'javascript: URL in "src"'],
    [
      'md',
      'an HTML javascript: href hidden by entities and whitespace',
      '<a href=" &#x6A;ava&#x09;script&colon;alert(1)">x</a>\n',
      'javascript: URL in "href"',
    ],
    [
      'md',
      'an HTML javascript: href in decimal entities',
      '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>\n',
      'javascript: URL in "href"',
    ],
    ['md', 'a javascript: form action', '<form action="javascript:alert(1)"><button>Go</button></form>\n', 'javascript: URL in "action"'],
    [
      'md',
      'an inline document',
      '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>\n',
      `<iframe> ${rawText}; line 5: "srcdoc" attribute (a document of its own, which can hold script)`,
    ],
    [
      'md',
      'a noscript whose text browsers read differently',
      '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>\n',
      `<noscript> ${rawText}`,
    ],
    ['mdx', 'a script element', '<script>{"alert(1)"}</script>\n', '<script> element'],
    ['mdx', 'an event handler', '<div onClick={() => alert(1)}>x</div>\n', 'event handler attribute "onClick"'],
    ['mdx', 'raw HTML through set:html', '<div set:html="<script>alert(1)</script>" />\n', '"set:html" directive (raw HTML this check cannot read)'],
    [
      'mdx',
      'raw HTML through set:html on a fragment',
      '<Fragment set:html={"<img src=x onerror=alert(1)>"} />\n',
      '"set:html" directive (raw HTML this check cannot read)',
    ],
    ['mdx', 'an event handler written as a string', 'Text <span onmouseover="alert(1)">x</span>.\n', 'event handler attribute "onmouseover"'],
    ['mdx', 'a javascript: href', '<a href="javascript:alert(1)">x</a>\n', 'javascript: URL in "href"'],
    ['mdx', 'an entity-obfuscated javascript: href', '<a href="jav&#x61;script:alert(1)">x</a>\n', 'javascript: URL in "href"'],
    ['mdx', 'a markdown javascript: link', '[click](javascript:alert(1))\n', 'javascript: URL in "href"'],
    [
      'mdx',
      'an href computed by an expression',
      '<a href={"javascript:" + "alert(1)"}>x</a>\n',
      '"href" computed by an expression other than a name or a literal, which cannot be checked',
    ],
    ['mdx', 'spread attributes', '<div {...{ onClick: "alert(1)" }}>x</div>\n', 'spread attributes ({...}), which cannot be checked'],
    ['mdx', 'spread attributes on a component', '<Callout {...{ title: "Hi" }}>x</Callout>\n', 'spread attributes ({...}), which cannot be checked'],
    [
      'mdx',
      'markup in a component prop',
      '<Callout title={<img src="/x.png" onError="alert(1)" />}>x</Callout>\n',
      '"title" computed by an expression other than a name or a literal, which cannot be checked',
    ],
    ['mdx', 'a script in an expression', '{<script>{"alert(1)"}</script>}\n', '<script> element'],
    [
      'mdx',
      'a raw-text element whose text can close it',
      '<textarea><b title="</textarea><script>alert(1)</script>">x</b></textarea>\n',
      `<textarea> ${rawText}`,
    ],
  ] as const)('fails a %s page on %s, naming the file, the line and the reason', async (extension, _, body, problem) => {
    const path = await page(extension, body);
    await expect(renderPageBody(path)).rejects.toThrow(refusal(path, `line 5: ${problem}`));
  });
});

describe('a Markdown page', () => {
  it('fails on raw HTML left open, which would make the markup after it part of a tag', async () => {
    // Each block alone is harmless; read together the span's title closes the div's and the script is real.
    const path = await page('md', '<div title="\n\n<span title="x><script>alert(1)</script>">y</span>\n');
    await expect(renderPageBody(path)).rejects.toThrow(
      refusal(
        path,
        'line 5: raw HTML left open at its end (a tag, comment, raw-text element, <svg> or <math>), which would change how the HTML after it is read',
      ),
    );
  });

  it('lists every problem by its line in the file', async () => {
    const path = await page('md', 'Intro.\n\n<script>alert(1)</script>\n\nSee [this](javascript:alert(2)).\n');
    await expect(renderPageBody(path)).rejects.toThrow(refusal(path, 'line 7: <script> element', 'line 9: javascript: URL in "href"'));
  });

  it('renders raw HTML, prose and code that only talk about script', async () => {
    const body = [
      '<details><summary>More</summary>',
      '',
      'Press <kbd>Ctrl</kbd>, read <a href="https://example.com/javascript:guide" title="javascript: the language">the guide</a>.',
      '',
      '</details>',
      '',
      '<div align="center">',
      '',
      'Handlers such as onclick="go()" belong in your app, not in `<script>` tags on this site; `javascript:` links neither.',
      '',
      '</div>',
      '',
      '```html',
      '<script>alert(1)</script>',
      '<a href="javascript:void 0" onclick="go()">x</a>',
      '```',
      '',
    ].join('\n');
    const rendered = await renderPageBody(await page('md', body));
    expect(rendered.html).toContain('<kbd>Ctrl</kbd>');
    expect(rendered.html).toContain('<details><summary>More</summary>');
  });
});

describe('an MDX page', () => {
  it('fails on an href that names an export, whose value it cannot check', async () => {
    const path = await page('mdx', "export const url = 'javascript:alert(1)';\n\n<a href={url}>x</a>\n");
    await expect(renderPageBody(path)).rejects.toThrow(refusal(path, 'line 7: "href" computed by an expression, which cannot be checked for javascript: URLs'));
  });

  it('fails on markup written in an export', async () => {
    const path = await page('mdx', 'Intro.\n\nexport const Pixel = () => <img src="/x.png" onError="alert(1)" />;\n\n<Pixel />\n');
    await expect(renderPageBody(path)).rejects.toThrow(refusal(path, 'line 7: event handler attribute "onError"'));
  });

  it("renders the site's components, plain elements and expressions", async () => {
    const body = [
      "export const chain = 'sepolia';",
      '',
      '<Callout type="tip" title="JavaScript: the basics">',
      '',
      'Use `onClick` in your own React app; press <kbd>Ctrl</kbd>.',
      '',
      '</Callout>',
      '',
      '<Tabs>',
      '<Tab label={chain}>',
      '',
      '<a href="https://example.com" title={chain}>Docs</a> and <img src="/favicon.svg" alt="logo" width={400} />',
      '',
      '</Tab>',
      '</Tabs>',
      '',
    ].join('\n');
    const rendered = await renderPageBody(await page('mdx', body));
    expect(typeof rendered.Content).toBe('function');
  });
});
