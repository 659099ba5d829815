import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderOpenApiDocument } from '../../integrations/surface/openapi.ts';
import { pageHeadersOf } from '../../integrations/surface/page-headers.ts';
import { writeStaticHostFiles } from '../../integrations/surface/static-host.ts';
import { surfaceManifest } from '../../integrations/surface/write.ts';
import { openApiDocumentPaths } from '../../src/api/operations/openapi.ts';
import { surfaceManifestFile } from '../../src/http/surface-manifest.ts';
import { compileSurfaceRules } from '../../src/http/surface-rules.ts';
import { locales } from '../../src/site/locales.ts';
import { precompressDir } from '../../src/server/precompress.ts';

// A small dist/ in the shape `npm run build` produces (build.format 'preserve' + the surface
// integration + precompress), for server tests and the benchmark: hand-written pages and
// twins, and the manifest, OpenAPI document, `_headers` and `_redirects` from the build's own
// writers. Next to it, outside dist/, a secret file that path-traversal tests try to reach.

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

export const fixtureSite = 'https://crucible.test';
export const secretText = 'TOP-SECRET-OUTSIDE-DIST';
export const inlineScript = "document.documentElement.dataset.theme = localStorage.getItem('theme') ?? 'light';";

export interface FixtureDist {
  root: string;
  distDir: string;
}

const filler = (topic: string) => Array.from({ length: 40 }, (_, i) => `<p>${topic}: paragraph ${i} about nodes, faucets and markdown twins.</p>`).join('\n');

const page = (title: string, body: string, head = '') => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<link rel="stylesheet" href="/_astro/site.B1xQ2c.css">
<script>${inlineScript}</script>
<script type="application/ld+json">{"@type":"WebPage"}</script>
<script type="module" src="/_astro/page.C3dE4f.js"></script>${head}
</head><body><main><h1>${title}</h1>
${body}
</main></body></html>
`;

const twin = (title: string, body: string) => `---\ntitle: ${title}\ndescription: ${title} in one sentence.\n---\n\n# ${title}\n\n${body}\n`;

export async function writeFixtureDist(): Promise<FixtureDist> {
  const root = await mkdtemp(join(tmpdir(), 'crucible-dist-'));
  const distDir = join(root, 'dist');
  const files: Record<string, string> = {
    'index.html': page('Crucible', filler('home')),
    'index.md': twin('Crucible', 'The blockchain developer platform.'),
    'ja/index.html': page('Crucible (ja)', filler('ホーム')),
    'ja/index.md': twin('Crucible (ja)', 'ブロックチェーン開発者プラットフォーム。'),
    'blog/index.html': page('Blog Posts', filler('blog index')),
    'blog/hello-world.html': page('Hello world', filler('hello'), '\n<img src="https://images.example.org/cover.png" alt="">'),
    'blog/hello-world.md': twin('Hello world', 'x'.repeat(2000)),
    'ja/blog/hello-world.html': page('こんにちは', filler('こんにちは')),
    'ja/blog/hello-world.md': twin('こんにちは', 'こんにちは世界。'),
    'faucets/index.html': page('Faucets', filler('faucets')),
    'faucets/ethereum-sepolia.html': page('Ethereum Sepolia faucet', filler('faucet')),
    '404.html': page('Page not found', '<p>The page you asked for does not exist.</p>'),
    '404.md': twin('Page not found', 'There is no markdown page at this address. See /llms.txt and /sitemap.xml.'),
    'llms.txt': `# Crucible\n\n> The blockchain developer platform.\n\n## Blog Posts\n\n- [Hello world](${fixtureSite}/blog/hello-world.md): Hello world in one sentence.\n`,
    'blog/llms.txt': `# Crucible: Blog Posts\n\n- [Hello world](${fixtureSite}/blog/hello-world.md): Hello world in one sentence.\n`,
    'llms-full.txt': twin('Crucible', 'The blockchain developer platform.').repeat(20),
    'sitemap.xml': `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${fixtureSite}/sitemap-0.xml</loc></sitemap></sitemapindex>`,
    'sitemap-0.xml': `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${fixtureSite}/</loc></url></urlset>`,
    'robots.txt': 'User-agent: *\nAllow: /\n',
    '_astro/page.C3dE4f.js': `console.log(${JSON.stringify('x'.repeat(1000))});\n`,
    '_astro/site.B1xQ2c.css': `body{font-family:system-ui}${'.a{color:red}'.repeat(100)}\n`,
    'press kit/index.html': page('Press kit', '<p>Logos.</p>'),
    'apps/uniswap.svg': '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>',
  };
  for (const locale of locales) {
    const items = [
      {
        label: 'Blog Posts',
        items: [
          {
            title: locale === 'ja' ? 'こんにちは' : 'Hello world',
            url: locale === 'en' ? '/blog/hello-world' : `/${locale}/blog/hello-world`,
            description: 'A post.',
          },
        ],
      },
      { label: 'Apps', items: [{ title: 'Uniswap', url: 'https://app.uniswap.org', icon: '/apps/uniswap.svg', external: true }] },
    ];
    files[`api/search/${locale}`] = JSON.stringify(items);
  }

  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(distDir, path)), { recursive: true });
    await writeFile(join(distDir, path), content);
  }
  const openApi = await renderOpenApiDocument(projectRoot, fixtureSite);
  for (const path of openApiDocumentPaths) await writeFile(join(distDir, path), openApi);
  const manifest = surfaceManifest({
    site: fixtureSite,
    twins: { '/index.md': '/', '/ja/index.md': '/ja/', '/blog/hello-world.md': '/blog/hello-world', '/ja/blog/hello-world.md': '/ja/blog/hello-world' },
    pageHeaders: pageHeadersOf(distDir, fixtureSite),
  });
  await writeFile(join(distDir, surfaceManifestFile), JSON.stringify(manifest));
  await writeStaticHostFiles(distDir, manifest);
  await writeFile(join(root, 'secret.txt'), secretText);
  await symlink(join(root, 'secret.txt'), join(distDir, 'linked-secret.txt'));
  await precompressDir(distDir, compileSurfaceRules(manifest));
  return { root, distDir };
}
