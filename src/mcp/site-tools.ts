import { z } from 'zod';
import { describedAs, jsonSchemaOf, type JsonSchema, type McpTool, objectSchema, SITE_TOOL_COMPUTE_UNITS, type SiteToolName } from './tool.ts';

// The site's own tools (docs/mcp.md#tools), the only ones declared here rather than generated: the
// docs (the locale's search index and the `.md` twins) and the network table. The registries they
// read are the built site's files and content/networks/.

/** Hits one search answers at most. */
const MAX_SEARCH_HITS = 50;

export function siteToolInputs(locales: readonly string[]) {
  const locale = z
    .enum(locales as [string, ...string[]])
    .default('en')
    .describe('The locale whose pages are searched (default en).');
  return {
    search_docs: z.object({
      query: z.string().trim().min(1).max(200).describe('Words to find in page titles and descriptions (a word matches the words it begins).'),
      locale,
      limit: z.int().min(1).max(MAX_SEARCH_HITS).default(10).describe(`Hits at most, best first (1–${MAX_SEARCH_HITS}, default 10).`),
    }),
    read_page: z.object({
      page: z
        .string()
        .trim()
        .min(1)
        .max(2_000)
        .describe('The page: its URL or path (/overviews/local-world), or its .md twin, as search_docs and llms.txt give them.'),
    }),
    list_networks: z.object({}),
  } satisfies Record<SiteToolName, z.ZodObject>;
}

const descriptions: Record<SiteToolName, string> = {
  search_docs: "Searches the site's guides, blog posts, case studies and apps by title and description; each hit has the URL read_page takes.",
  read_page: 'Reads a page of the docs as Markdown (its .md twin), by URL or path.',
  list_networks: 'Lists the networks: id, name, chain id, native currency, node URL, and whether the faucet and the data tools serve it.',
};

export function siteTools(options: { locales: readonly string[] }): McpTool[] {
  const inputs = siteToolInputs(options.locales);
  return (Object.keys(inputs) as SiteToolName[]).map((name) => {
    const schema = jsonSchemaOf(inputs[name], 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    const properties = schema.properties ?? {};
    return {
      name,
      ...describedAs(descriptions[name], SITE_TOOL_COMPUTE_UNITS),
      inputSchema: objectSchema(properties, schema.required ?? []),
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
      fields: new Map(Object.keys(properties).map((key) => [key, { part: 'query', key }] as const)),
      source: { kind: 'site', name },
      computeUnits: SITE_TOOL_COMPUTE_UNITS,
    };
  });
}
