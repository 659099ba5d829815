import { defaultLocale, locales, type Locale } from './locales.ts';
import type { Section } from './sections.ts';

// Every site URL is computed here and nowhere else. Leaf pages have no trailing slash
// (`/ja/blog/<slug>`); homes and section indexes are directories (`/`, `/ja/`, `/ja/blog/`).

function localePrefix(locale: Locale): string {
  return locale === defaultLocale ? '' : `/${locale}`;
}

export function homeUrl(locale: Locale): string {
  return `${localePrefix(locale)}/`;
}

export function sectionUrl(locale: Locale, section: Section): string {
  return `${localePrefix(locale)}/${section}/`;
}

export function pageUrl(locale: Locale, section: Section, slug: string): string {
  return `${localePrefix(locale)}/${section}/${slug}`;
}

/** The JSON-RPC method reference of a locale (content/<locale>/rpc/methods.md, written by `npm run docs:rpc`). */
export const rpcReferenceSlug = 'methods';

export function rpcReferenceUrl(locale: Locale): string {
  return pageUrl(locale, 'rpc', rpcReferenceSlug);
}

/** Where the node gateway answers on the site's own host: `<site origin>/node/<network>/…` (docs/hosts-and-paths.md#node-url). */
export const nodePathPrefix = '/node/';

/** What `{node_url}` depends on: the site origin and NODE_DOMAIN (null when unset). */
export interface NodeUrlOptions {
  siteOrigin: string;
  nodeDomain: string | null;
}

/** `{node_url}` of a network as pages and documents show it (docs/hosts-and-paths.md#node-url): the domain form when configured, else the path form. */
export function nodeUrlOf(network: string, options: NodeUrlOptions): string {
  return options.nodeDomain ? `https://${network}.${options.nodeDomain}` : `${options.siteOrigin.replace(/\/$/, '')}${nodePathPrefix}${network}`;
}

/**
 * A URL under `{node_url}` as a WebSocket client opens it: the same host and path, `ws://` for
 * `http://` and `wss://` for `https://` (`ws://…/node/<network>/v2/<key>`, `wss://<network>.<NODE_DOMAIN>/v2/<key>`).
 */
export function webSocketUrlOf(nodeUrl: string): string {
  return nodeUrl.replace(/^http(s?):\/\//, 'ws$1://');
}

/** The guide to the MCP server (content/<locale>/overviews/mcp-server.md, written by `npm run docs:mcp`). */
export const mcpGuideSlug = 'mcp-server';

export function mcpGuideUrl(locale: Locale): string {
  return pageUrl(locale, 'overviews', mcpGuideSlug);
}

export function faucetsUrl(locale: Locale, faucetId?: string): string {
  return faucetId ? `${localePrefix(locale)}/faucets/${faucetId}` : `${localePrefix(locale)}/faucets/`;
}

/** The demo wallet's NFT gallery of a locale: `/nfts/gallery`, `/ja/nfts/gallery`. */
export function nftGalleryUrl(locale: Locale): string {
  return `${localePrefix(locale)}/nfts/gallery`;
}

/** The developer dashboard's pages (docs/dashboard.md#pages), each a directory: `/dashboard/`, `/ja/dashboard/apps/`. */
export const dashboardPages = ['start', 'sign-up', 'sign-in', 'apps', 'app', 'webhooks', 'account'] as const;
export type DashboardPage = (typeof dashboardPages)[number];
/** Pages for a signed-in account: empty shells to a crawler, so `noindex` and out of the sitemap. */
export const signedInDashboardPages: readonly DashboardPage[] = ['apps', 'app', 'webhooks', 'account'];

/** Whether a site path (any locale, with or without its trailing slash) is a signed-in dashboard page. */
export function isSignedInDashboardPath(path: string): boolean {
  const match = /^(?:\/([^/]+))?\/dashboard\/([^/]+)\/?$/.exec(path);
  if (!match || (match[1] !== undefined && !(locales as readonly string[]).includes(match[1]))) return false;
  return (signedInDashboardPages as readonly string[]).includes(match[2]!);
}

export function dashboardUrl(locale: Locale, page: DashboardPage = 'start'): string {
  return `${localePrefix(locale)}/dashboard/${page === 'start' ? '' : `${page}/`}`;
}

/** One app's page: a prerendered shell that reads the app id from `?id=`. */
export function dashboardAppUrl(locale: Locale, appId: string): string {
  return `${dashboardUrl(locale, 'app')}?id=${encodeURIComponent(appId)}`;
}

/** The `.md` twin of an HTML URL: `/` -> `/index.md`, `/ja/` -> `/ja/index.md`, `/blog/x` -> `/blog/x.md`. */
export function twinUrl(htmlUrl: string): string {
  return htmlUrl.endsWith('/') ? `${htmlUrl}index.md` : `${htmlUrl}.md`;
}

/** The per-locale section llms.txt: `/blog/llms.txt`, `/ja/blog/llms.txt`. */
export function sectionLlmsUrl(locale: Locale, section: Section): string {
  return `${sectionUrl(locale, section)}llms.txt`;
}

export function llmsUrl(locale: Locale): string {
  return `${homeUrl(locale)}llms.txt`;
}

/** Every page of the locale as its twin, in one file: `/llms-full.txt`, `/ja/llms-full.txt`. */
export function llmsFullUrl(locale: Locale): string {
  return `${homeUrl(locale)}llms-full.txt`;
}

/** The translation status table for authors (English only). */
export const translationStatusUrl = '/authors/translations';

export function searchIndexUrl(locale: Locale): string {
  return `/api/search/${locale}`;
}

/** The dist/ file that serves a site-relative URL (Astro `build.format: 'preserve'`). */
export function htmlFileOf(htmlUrl: string): string {
  const path = htmlUrl.endsWith('/') ? `${htmlUrl}index.html` : `${htmlUrl}.html`;
  return path.slice(1);
}

export function absoluteUrl(site: string, path: string): string {
  return new URL(path, site).href;
}

/** A page's URL in one locale: its hreflang alternates and the locale switcher list them. */
export interface Alternate {
  locale: Locale;
  url: string;
}
