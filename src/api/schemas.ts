import { z } from 'zod';
import { locales } from '../site/locales.ts';
import { ACCOUNT_LIMITS } from '../apps/errors.ts';
import { DASHBOARD_CODES, ERROR_BODY_CODES } from '../errors/codes.ts';

// The resources every API shares (docs/website.md#faucet-send, docs/errors.md#error-body, docs/website.md#search-index) as zod schemas. The router validates
// requests with them, handlers are typed by them, and src/api/openapi.ts turns them into the
// OpenAPI components. The faucet's bodies live with the faucet (src/faucet/bodies.ts, and its
// HTTP side src/faucet/api/operations.ts); the site API names them all (src/runtime/site-api.ts).

/** 20-byte address (docs/website.md#faucet-send). */
export const Address = z
  .string()
  .regex(/^0x[a-fA-F0-9]{40}$/)
  .describe('0x followed by 40 hexadecimal digits (20 bytes).');

/** 32-byte transaction hash (docs/website.md#faucet-send). */
export const TransactionHash = z
  .string()
  .regex(/^0x[a-fA-F0-9]{64}$/)
  .describe('0x followed by 64 hexadecimal digits (32 bytes).');

export const Locale = z.enum(locales).describe('Site locale; English is the default.');

/** The faucet ids (docs/website.md#faucet-send) come from content/networks/, so this is built from that data. */
export function faucetIdSchema(ids: readonly string[]) {
  if (ids.length === 0) throw new Error('faucetIdSchema needs at least one network id');
  return z.enum(ids as [string, ...string[]]).describe('Faucet (network) id, one per file in content/networks/.');
}

/** 2.5 */
export const ErrorBody = z.object({
  error: z.object({
    code: z.enum(ERROR_BODY_CODES),
    message: z.string().describe('One sentence on what went wrong.'),
    hint: z.string().describe('Concrete next step.'),
    status: z.int().describe('The HTTP status, repeated.'),
    documentation_url: z.url().describe('Where the callable surface is described.'),
  }),
});

/** A cap an account reached (409 `limit_reached`): its name as the docs give it, and its value. */
export const ReachedLimit = z
  .object({
    name: z.enum(ACCOUNT_LIMITS).describe('appsPerAccount: DASHBOARD_APPS_PER_ACCOUNT; webhooksPerAccount: WEBHOOKS_PER_ACCOUNT.'),
    max: z.int().min(1).describe('How many one account may have.'),
  })
  .describe('On 409 `limit_reached`, the cap the account reached.');

/** The Error body as the account APIs (the dashboard's, the webhook API) answer it: their codes, and the input or cap at fault. */
export const DashboardError = z.object({
  error: z.object({
    code: z.enum(DASHBOARD_CODES),
    message: z.string().describe('One sentence on what went wrong, for a person.'),
    hint: z.string().describe('Concrete next step.'),
    status: z.int().describe('The HTTP status, repeated.'),
    documentation_url: z.url().describe('Where the callable surface is described.'),
    field: z.string().optional().describe('The input at fault (`email`, `allowedDomains`, …): the page shows `message` next to it.'),
    limit: ReachedLimit.optional(),
  }),
});

/** 2.6 */
export const SearchItem = z.object({
  title: z.string(),
  url: z.string().describe('Site-relative for pages on this site, absolute for dapp listings.'),
  description: z.string().optional(),
  icon: z.string().optional().describe('Logo URL, when there is one.'),
  external: z.boolean().optional().describe('true when url leaves this site.'),
});
export type SearchItem = z.infer<typeof SearchItem>;

export const SearchGroup = z.object({
  label: z.string().describe('Localized heading: Blog Posts, Guides, Case Studies, Apps.'),
  items: z.array(SearchItem),
});
export type SearchGroup = z.infer<typeof SearchGroup>;

export const SearchIndex = z.array(SearchGroup).describe('The whole index of one locale; empty groups are omitted.');

/** 4.4 */
export const ClientIp = z.object({
  ipAddress: z.union([z.string(), z.null()]).describe('The address the edge saw for this request, or null when it supplied none.'),
});
export type ClientIp = z.infer<typeof ClientIp>;
