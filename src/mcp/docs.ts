import { parseSearchIndex } from '../search/data.ts';
import { createSearchEngine, type SearchEngine } from '../search/engine.ts';
import { searchIndexUrl, twinUrl } from '../site/urls.ts';
import type { McpNetwork, SiteFiles } from './ports.ts';

// The docs and networks tools (docs/mcp.md#tools): search_docs finds pages in a locale's search
// index (the one the site's search dialog reads, searched the same way), read_page answers a page's
// `.md` twin, list_networks the network table. Each answer is plain data; ./answers.ts sizes it.

interface DocsHit {
  group: string;
  title: string;
  description: string | null;
  /** The page, absolute; a dapp listing's own site when `external`. */
  url: string;
  /** The page's `.md` twin, which read_page reads; null for a listing of another site. */
  markdown: string | null;
}

export interface Docs {
  search(query: string, locale: string, limit: number): Promise<DocsHit[] | null>;
  /** The twin of a page named by URL, path or twin path; null when the site has no such page. */
  page(page: string): Promise<{ url: string; markdown: string; text: string } | null>;
}

export function createDocs(site: SiteFiles, origin: string): Docs {
  // One engine per locale, built on first use from the built index (it never changes while the server runs).
  const engines = new Map<string, Promise<SearchEngine | null>>();
  const engineOf = (locale: string) => {
    let engine = engines.get(locale);
    if (!engine) {
      engine = site.read(searchIndexUrl(locale as never)).then((text) => (text === null ? null : createSearchEngine(parseSearchIndex(JSON.parse(text)))));
      engines.set(locale, engine);
    }
    return engine;
  };
  const absolute = (path: string) => new URL(path, origin).href;
  const twins = new Set(site.twins);

  return {
    async search(query, locale, limit) {
      const engine = await engineOf(locale);
      if (!engine) return null;
      const hits: DocsHit[] = [];
      for (const group of engine.search(query)) {
        for (const hit of group.hits) {
          const { item } = hit;
          const external = item.external === true || !item.url.startsWith('/');
          const twin = external ? undefined : site.twinOf(item.url);
          hits.push({
            group: group.label,
            title: item.title,
            description: item.description ?? null,
            url: external ? item.url : absolute(item.url),
            markdown: twin ? absolute(twin) : null,
          });
        }
      }
      return hits.slice(0, limit);
    },
    async page(page) {
      const twin = twinPathOf(site, twins, page, origin);
      if (!twin) return null;
      const text = await site.read(twin);
      if (text === null) return null;
      const html = twin.endsWith('/index.md') ? twin.slice(0, -'index.md'.length) : twin.slice(0, -'.md'.length);
      return { url: absolute(html), markdown: absolute(twin), text };
    },
  };
}

/** `https://site/x`, `/x`, `/x/`, `x`, `/x.md`: the twin path of that page, if the site has it. */
function twinPathOf(site: SiteFiles, twins: ReadonlySet<string>, page: string, origin: string): string | undefined {
  const url = URL.parse(page, origin);
  if (!url || url.origin !== new URL(origin).origin) return undefined;
  const path = decodeURIComponent(url.pathname);
  if (path.endsWith('.md')) return twins.has(path) ? path : undefined;
  return site.twinOf(path) ?? site.twinOf(path.endsWith('/') ? path.slice(0, -1) : `${path}/`) ?? (twins.has(twinUrl(path)) ? twinUrl(path) : undefined);
}

/** The network table as list_networks answers it. */
export function networkList(networks: readonly McpNetwork[]) {
  return networks.map((network) => ({
    id: network.id,
    name: network.name,
    chainId: network.chainId,
    nativeCurrency: network.currency,
    nodeUrl: `${network.nodeUrl}/v2/<key>`,
    nodeTools: network.nodeTools,
    faucetUrl: network.faucetUrl,
    ...(network.deprecated ? { deprecated: true } : {}),
  }));
}
