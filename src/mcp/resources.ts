import type { McpPorts } from './ports.ts';

// The MCP resources (docs/mcp.md#resources): the site's `llms.txt` files and every page's `.md`
// twin, by their absolute URLs, listed a page at a time and read whole (a client asks for a
// resource knowingly; the tools are what answers sized for a model).

/** Resources per resources/list page. */
const RESOURCES_PER_PAGE = 200;

interface ResourceEntry {
  uri: string;
  name: string;
  mimeType: string;
}

export interface Resources {
  /** One page of the list, and the cursor of the next when there is one; null for a cursor this server did not give. */
  list(cursor: string | undefined): { resources: ResourceEntry[]; nextCursor?: string } | null;
  /** The resource's text, or null when the site has none at that URI. */
  read(uri: string): Promise<{ uri: string; mimeType: string; text: string } | null>;
}

const mimeTypeOf = (path: string) => (path.endsWith('.md') ? 'text/markdown' : 'text/plain');

export function createResources(ports: Pick<McpPorts, 'origin' | 'site'>): Resources {
  const paths = [...ports.site.llms, ...ports.site.twins];
  const known = new Set(paths);
  const origin = new URL(ports.origin).origin;
  const entry = (path: string): ResourceEntry => ({ uri: new URL(path, origin).href, name: path, mimeType: mimeTypeOf(path) });
  return {
    list(cursor) {
      const from = cursor === undefined ? 0 : Number.parseInt(Buffer.from(cursor, 'base64url').toString('utf8'), 10);
      if (!Number.isSafeInteger(from) || from < 0 || from > paths.length) return null;
      const to = Math.min(paths.length, from + RESOURCES_PER_PAGE);
      return {
        resources: paths.slice(from, to).map(entry),
        ...(to < paths.length ? { nextCursor: Buffer.from(String(to)).toString('base64url') } : {}),
      };
    },
    async read(uri) {
      const url = URL.parse(uri);
      if (!url || url.origin !== origin) return null;
      const path = decodeURIComponent(url.pathname);
      if (!known.has(path)) return null;
      const text = await ports.site.read(path);
      return text === null ? null : { uri: entry(path).uri, mimeType: mimeTypeOf(path), text };
    },
  };
}
