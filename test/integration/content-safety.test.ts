import { createHash } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { htmlToHast } from 'satteri';
import { visit } from 'unist-util-visit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sitePathOf } from '../../src/http/site-paths.ts';
import { openStaticSite, type StaticSite } from '../../src/server/static-site.ts';
import { loadSurfaceRules } from '../../src/server/surface-rules.ts';
import { buildFixtureWith } from '../support/build.ts';

// Content cannot smuggle script: the real build refuses it, and the CSP the server sends with a
// built page allows exactly the inline scripts the site's own components put there.

const frontmatter = (title: string, extra = '') => `---\ntitle: ${title}\ndescription: A page for the script check.\n${extra}---\n`;

/** Pages that may show and talk about script, but not run it. */
const harmlessPages = {
  'en/blog/about-script.md': `${frontmatter('About script', 'date: 2026-06-01\n')}<details><summary>More</summary>\n\nPress <kbd>Ctrl</kbd>; write \`onclick\` handlers in your own app.\n\n</details>\n\n\`\`\`html\n<script>alert(1)</script>\n\`\`\`\n`,
  'en/overviews/about-handlers.mdx': `${frontmatter('About handlers', 'order: 2\n')}<Callout type="tip" title="JavaScript: the basics">\n\nUse <kbd>onClick</kbd> in React, <a href="https://example.com">not here</a>.\n\n</Callout>\n`,
};

let scratch: string | undefined;
let dist: string;
let site: StaticSite;

beforeAll(async () => {
  const result = await buildFixtureWith(harmlessPages);
  scratch = result.dir;
  if (result.code !== 0) throw new Error(`fixture build failed:\n${result.output}`);
  dist = result.outDir;
  site = await openStaticSite(dist, await loadSurfaceRules(dist));
});

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** Builds the fixture with `files` added, expects the build to fail, and returns its output. */
async function failedBuildOutput(files: Record<string, string>): Promise<string> {
  const result = await buildFixtureWith(files);
  try {
    expect(result.code, result.output).not.toBe(0);
    return result.output;
  } finally {
    await rm(result.dir, { recursive: true, force: true });
  }
}

/** The inline scripts a browser would run from this HTML, read by an HTML parser. */
function inlineScriptsOf(html: string): string[] {
  const scripts: string[] = [];
  visit(htmlToHast(html), 'element', (element) => {
    const type = String(element.properties.type ?? '').toLowerCase();
    if (element.tagName !== 'script' || element.properties.src !== undefined) return;
    if (type && type !== 'module' && !type.includes('javascript')) return;
    scripts.push(element.children.map((child) => (child.type === 'text' ? child.value : '')).join(''));
  });
  return scripts;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe("a built page's CSP", () => {
  it("hashes exactly the inline scripts the site's own components emit", async () => {
    const htmlFiles = (await readdir(dist, { recursive: true })).filter((file) => file.endsWith('.html'));
    let faucetPages = 0;
    for (const file of htmlFiles) {
      const path = sitePathOf(file);
      if (!site.has(path)) continue;
      const csp = String((await site.reply({ method: 'GET', path, query: '' })).headers['content-security-policy']);
      const scriptSrc = csp.split('; ').find((directive) => directive.startsWith('script-src '))!;
      const scripts = inlineScriptsOf(await readFile(join(dist, file), 'utf8'));
      expect(
        scriptSrc.split(' ').filter((source) => source.startsWith("'sha256-")),
        path,
      ).toEqual(scripts.map(sha256));
      // The faucet form and the NFT gallery mount themselves with an inline script; the search
      // dialog, tabs and code groups load theirs from /_astro/. Nothing else is an inline script.
      const isFaucetNetworkPage = /\/faucets\/[^/]+$/.test(path);
      const isGalleryPage = /\/nfts\/gallery$/.test(path);
      expect(scripts.length, path).toBe(isFaucetNetworkPage || isGalleryPage ? 1 : 0);
      for (const script of scripts) expect(script, path).toContain(isGalleryPage ? '[data-nft-gallery]' : '[data-faucet-form]');
      if (isFaucetNetworkPage) faucetPages += 1;
    }
    expect(faucetPages).toBeGreaterThan(0);
    expect(site.has('/blog/about-script') && site.has('/overviews/about-handlers')).toBe(true);
  });

  it('cannot get a hash from content: a page whose body adds an inline script fails the build, naming the file, the line and the reason', async () => {
    const output = await failedBuildOutput({
      'en/blog/smuggled-script.md': `${frontmatter('A post with a script', 'date: 2026-06-01\n')}Read on.\n\n<script>fetch('/api/faucet', { method: 'POST' })</script>\n`,
    });
    expect(output).toMatch(/en\/blog\/smuggled-script\.md: content may not run script: line 8: <script> element/);
  });
});

describe('content that would run script', () => {
  it('fails the build on an event handler in an MDX page, naming the file, the line and the reason', async () => {
    const output = await failedBuildOutput({
      'en/overviews/smuggled-handler.mdx': `${frontmatter('A guide with a handler', 'order: 9\n')}<Callout type="tip">\n\n<button onClick="alert(document.cookie)">Try it</button>\n\n</Callout>\n`,
    });
    expect(output).toMatch(/en\/overviews\/smuggled-handler\.mdx: content may not run script: line 8: event handler attribute "onClick"/);
  });
});

describe('a network file', () => {
  it('fails the build on an explorer that is not https, naming the file and the field', async () => {
    const fixtureNetwork = await readFile(join(import.meta.dirname, '../fixtures/site/content/networks/fixture-testnet.yaml'), 'utf8');
    const output = await failedBuildOutput({
      'networks/fixture-testnet.yaml': fixtureNetwork.replace('explorer: https://', 'explorer: http://'),
      'networks/smuggle-testnet.yaml': fixtureNetwork.replace(/explorer: .*/, 'explorer: "javascript:alert(document.cookie)"'),
    });
    expect(output).toMatch(/networks\/fixture-testnet\.yaml: field "explorer": must be an https URL/);
    expect(output).toMatch(/networks\/smuggle-testnet\.yaml: field "explorer": must be an https URL/);
  });
});
