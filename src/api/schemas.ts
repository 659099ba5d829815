import { z } from 'zod';
import { locales } from '../site/locales.ts';
import { apiErrorCodes } from './errors.ts';
import { faucetErrorCodes } from './faucet-errors.ts';

// The resources of spec 2.1–2.6 as zod schemas. The router validates requests with them,
// handlers are typed by them, and src/api/openapi.ts turns them into the OpenAPI components.

/** 20-byte address (spec 8.4). */
export const Address = z.string().regex(/^0x[a-fA-F0-9]{40}$/).describe('0x followed by 40 hexadecimal digits (20 bytes).');

/** 32-byte transaction hash (spec 8.4). */
export const TransactionHash = z.string().regex(/^0x[a-fA-F0-9]{64}$/).describe('0x followed by 64 hexadecimal digits (32 bytes).');

export const Locale = z.enum(locales).describe('Site locale; English is the default.');

/** The faucet ids (spec 4.1) come from content/networks/, so this is built from that data. */
export function faucetIdSchema(ids: readonly string[]) {
  if (ids.length === 0) throw new Error('faucetIdSchema needs at least one network id');
  return z.enum(ids as [string, ...string[]]).describe('Faucet (network) id, one per file in content/networks/.');
}

/** 2.1 */
export const FaucetSendRequest = z.object({
  address: Address.describe('Recipient address.'),
  turnstileToken: z.string().min(1).describe('Token from the CAPTCHA on the faucet page of this network ({base_url}/faucets/{faucetId}).'),
});
export type FaucetSendRequest = z.infer<typeof FaucetSendRequest>;

/** 2.2 */
export const FaucetSendSuccess = z.object({
  success: z.literal(true),
  transactionHash: z.string().describe('Hash to pass to the status endpoint.'),
  amount: z.string().optional().describe("Amount sent, in the network's native unit."),
  recipient: z.string().optional(),
  explorerUrl: z.url().optional().describe('Block explorer link, when the network has an explorer.'),
  statusCode: z.literal('success'),
});
export type FaucetSendSuccess = z.infer<typeof FaucetSendSuccess>;

/** 2.3 */
export const FaucetErrorCode = z.enum(faucetErrorCodes).describe('Stable machine-readable failure code: branch on this, not on the text.');

export const FaucetError = z.object({
  error: z.string().describe('Human-readable reason.'),
  statusCode: FaucetErrorCode.optional(),
  message: z.string().optional().describe('Extra detail or advice to retry, on unexpected-failure paths.'),
  hint: z.string().optional().describe('The next step, on validation failures.'),
  supportedChains: z.array(z.string()).optional().describe('Present when faucetId is unknown.'),
  resetAt: z.iso.datetime().optional().describe('Present on rate_limit_exceeded: when the limit lifts.'),
  details: z.string().optional().describe('Present on turnstile_failed.'),
});

/** 2.4 */
export const FaucetTransactionStatus = z.object({
  status: z.enum(['success', 'failed', 'pending']).describe('`pending` means the node has no receipt yet.'),
  mined: z.literal(true).optional().describe('Present once a receipt exists.'),
  success: z.boolean().optional().describe('Present on the pending response.'),
  transactionHash: z.string().optional(),
  chainId: z.int().optional(),
  chainName: z.string().optional(),
  explorerUrl: z.url().optional(),
});
export type FaucetTransactionStatus = z.infer<typeof FaucetTransactionStatus>;

/** 2.5 */
export const ErrorBody = z.object({
  error: z.object({
    code: z.enum(apiErrorCodes),
    message: z.string().describe('One sentence on what went wrong.'),
    hint: z.string().describe('Concrete next step.'),
    status: z.int().describe('The HTTP status, repeated.'),
    documentation_url: z.url().describe('Where the callable surface is described.'),
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

export const SearchGroup = z.object({
  label: z.string().describe('Localized heading: Blog Posts, Guides, Case Studies, Apps.'),
  items: z.array(SearchItem),
});

export const SearchIndex = z.array(SearchGroup).describe('The whole index of one locale; empty groups are omitted.');

/** 4.4 */
export const ClientIp = z.object({
  ipAddress: z.union([z.string(), z.null()]).describe('The address the edge saw for this request, or null when it supplied none.'),
});
export type ClientIp = z.infer<typeof ClientIp>;

/** Named schemas of the OpenAPI document (`#/components/schemas/<name>`). */
export function componentSchemas(faucetId: z.ZodType) {
  return {
    FaucetId: faucetId,
    Locale,
    Address,
    TransactionHash,
    FaucetSendRequest,
    FaucetSendSuccess,
    FaucetErrorCode,
    FaucetError,
    FaucetTransactionStatus,
    Error: ErrorBody,
    SearchItem,
    SearchGroup,
    SearchIndex,
    ClientIp,
  } satisfies Record<string, z.ZodType>;
}
