import { z } from 'zod';

// Frontmatter and data-file schemas. Astro's content collections (src/content.config.ts)
// and the surface integration (integrations/) validate with these same objects.

const oneLine = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !/[\r\n]/.test(s), 'must be a single line');

const calendarDate = z.coerce.date({ error: 'must be a date written as YYYY-MM-DD' });

/** Frontmatter of every page under content/<locale>/<section>/ and content/<locale>/index.md. */
export const pageFrontmatter = z
  .object({
    title: oneLine(160),
    description: oneLine(320),
    /** Publication date (blog posts and case studies show it). */
    date: calendarDate.optional(),
    /** Last meaningful update. */
    updated: calendarDate.optional(),
    authors: z.array(z.string().min(1)).optional(),
    tags: z.array(z.string().min(1)).optional(),
    /** Sort key within a section (lower first); guides and support use it. */
    order: z.number().int().optional(),
    /** RPC pages: the network id (content/networks/<id>.yaml) whose facts the page shows. */
    network: z
      .string()
      .regex(/^[a-z0-9-]+$/)
      .optional(),
    /** Case studies: the customer's name. */
    company: z.string().min(1).optional(),
    /** Drafts are built nowhere. */
    draft: z.boolean().default(false),
  })
  .strict();
export type PageFrontmatter = z.infer<typeof pageFrontmatter>;

export const appCategories = ['defi', 'nft', 'gaming', 'wallet', 'infrastructure', 'social', 'dao', 'bridge', 'analytics', 'identity'] as const;

/** content/apps/<slug>.yaml: a dapp listing (search group "Apps"). */
export const appData = z
  .object({
    name: oneLine(80),
    description: oneLine(240),
    url: z.url({ protocol: /^https$/ }),
    /** Site-relative path of the logo under public/, e.g. /apps/uniswap.svg. */
    icon: z.string().regex(/^\/[^\s]+\.(svg|png|webp)$/, 'must be a site-relative image path such as /apps/name.svg'),
    category: z.enum(appCategories),
  })
  .strict();
export type AppData = z.infer<typeof appData>;

const decimalString = z.string().regex(/^\d+(\.\d+)?$/, 'must be a decimal number written as a string, e.g. "0.1"');

/** content/networks/<faucetId>.yaml: one faucet/RPC network. The file name is the faucet id. */
export const networkData = z
  .object({
    name: oneLine(80),
    /** EIP-155 chain ID; null for non-EVM chains (see chainRef). */
    chainId: z.number().int().positive().nullable(),
    /** Chain identifier for non-EVM networks, e.g. SN_SEPOLIA. */
    chainRef: z.string().optional(),
    vm: z.enum(['evm', 'eravm', 'starknet']),
    nativeCurrency: z.object({ symbol: z.string().min(1), decimals: z.number().int().min(0).max(36) }).strict(),
    /** Block explorer base URL; transaction links are `${explorer}/tx/${hash}`. Pages link it, so never `javascript:`. */
    explorer: z.url({ protocol: /^https$/, error: 'must be an https URL' }).nullable(),
    mainnet: z
      .object({ name: z.string().min(1), chainId: z.number().int().positive().nullable(), chainRef: z.string().optional() })
      .strict()
      .nullable(),
    /** Amount sent per drip, in the native unit. */
    drip: decimalString,
    /** A recipient holding more than this (native unit) is refused (`max_balance_exceeded`). */
    maxBalance: decimalString,
    /** One drip per address per network per this many hours. */
    rateWindowHours: z.number().positive(),
    /**
     * The most gas one drip pays for: a transfer to an account costs 21,000, a contract wallet's
     * receive() a little more. A recipient whose code needs more is refused, so no contract can
     * make the faucet pay for its work. Networks whose estimates include L1 data costs set more.
     */
    maxDripGas: z.number().int().min(21_000).default(100_000),
    /**
     * Blocks below the head after which the node gateway treats a block as final and keeps answers
     * about it (docs/json-rpc.md#answer-cache). 64 is two Ethereum epochs; rollups that settle later set more.
     */
    finalityBlocks: z.number().int().min(0).default(64),
    deprecated: z.boolean().default(false),
    /** The funded network the faucet names to callers of a deprecated one (at most one network sets it). */
    suggestForDeprecated: z.boolean().default(false),
    notes: z.string().optional(),
  })
  .strict()
  .refine((network) => !(network.deprecated && network.suggestForDeprecated), {
    path: ['suggestForDeprecated'],
    message: 'a deprecated network cannot be suggested instead of a deprecated one',
  });
export type NetworkData = z.infer<typeof networkData>;

/**
 * content/networks/aliases.yaml: the incumbent's network names (alchemy-sdk's `Network` enum),
 * each value with its KEY and the chain id it names (src/site/network-names.ts resolves them).
 */
export const networkAliasData = z.record(
  z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'must be a lowercase name such as eth-sepolia'),
  z
    .object({
      key: z.string().regex(/^[A-Z0-9][A-Z0-9_]{0,63}$/, 'must be an upper-case KEY such as ETH_SEPOLIA'),
      chainId: z.number().int().positive(),
    })
    .strict(),
);
export type NetworkAliasData = z.infer<typeof networkAliasData>;
