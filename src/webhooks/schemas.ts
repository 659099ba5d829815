import { z } from 'zod';

// What the webhook API accepts (docs/webhooks.md#webhook-object): the server validates with these schemas and
// /openapi.json describes them; the dashboard's webhook form imports them to check its input before
// sending it, so this module imports nothing but zod. Each refusal's message is a sentence about
// its field. Rules that depend on the server's mode (https only, public hosts) stay with the store
// (webhook.ts), which judges the same input again.

export const WEBHOOK_TYPES = ['NFT_ACTIVITY', 'NFT_METADATA_UPDATE'] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];

/** Contract addresses and token ids one webhook may filter on. */
export const MAX_FILTER_ENTRIES = 1000;
export const MAX_URL_LENGTH = 2048;
export const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;
/** Decimal up to 2^256 - 1's 78 digits, or 0x hex up to 64 digits. */
export const TOKEN_ID_PATTERN = /^(\d{1,78}|0x[0-9a-fA-F]{1,64})$/;

const addressMessage = 'Each contract address is 0x followed by 40 hexadecimal digits.';
const address = z.string({ error: addressMessage }).regex(ADDRESS_PATTERN, addressMessage).describe('0x followed by 40 hexadecimal digits.');

const tokenIdMessage = 'Each token id is a decimal number, or 0x followed by at most 64 hexadecimal digits.';
const tokenId = z
  .string({ error: tokenIdMessage })
  .regex(TOKEN_ID_PATTERN, tokenIdMessage)
  .describe('Decimal, or 0x hexadecimal; stored and shown as decimal.');

const Filters = z
  .object(
    {
      contractAddresses: z
        .array(address, { error: 'The contract addresses are a list of 0x addresses.' })
        .max(MAX_FILTER_ENTRIES, `List at most ${MAX_FILTER_ENTRIES} contract addresses.`)
        .optional()
        .describe('Only these contracts; absent or empty: every contract.'),
      tokenIds: z
        .array(tokenId, { error: 'The token ids are a list of decimal or 0x hexadecimal numbers.' })
        .max(MAX_FILTER_ENTRIES, `List at most ${MAX_FILTER_ENTRIES} token ids.`)
        .optional()
        .describe('NFT_ACTIVITY only: only these token ids; absent or empty: every token.'),
    },
    { error: 'The filters are an object with contractAddresses and tokenIds.' },
  )
  .strict();

export const WebhookTypeSchema = z
  .enum(WEBHOOK_TYPES, { error: `The type is ${WEBHOOK_TYPES.join(' or ')}.` })
  .describe('NFT_ACTIVITY: NFT transfers (ERC-721, ERC-1155, legacy). NFT_METADATA_UPDATE: a token’s metadata changed on refresh.');

const networkMessage = 'Give the id of a network, such as ethereum-sepolia.';
const urlMessage = 'Give the URL deliveries are POSTed to, such as https://example.com/hooks.';

/** Whether a URL's syntax is one a webhook may have in any mode; the store adds the mode's rules. */
const isHttpUrl = (value: string) => ['http:', 'https:'].includes(URL.parse(value)?.protocol ?? '');

const Url = z
  .string({ error: urlMessage })
  .min(1, urlMessage)
  .refine((value) => value.length <= MAX_URL_LENGTH, `The URL must be at most ${MAX_URL_LENGTH} characters.`)
  .refine(isHttpUrl, 'The URL must be an absolute http or https URL, such as https://example.com/hooks.')
  .describe('https (http too in local mode); outside local mode not a loopback, private or link-local address.');

export const CreateWebhook = z
  .object({
    type: WebhookTypeSchema,
    network: z
      .string({ error: networkMessage })
      .min(1, networkMessage)
      .describe("Network id, as in content/networks/, or the incumbent's name of its chain (`eth-sepolia`, `ETH_SEPOLIA`); the webhook keeps the id."),
    url: Url,
    filters: Filters.optional(),
  })
  .strict();

export const UpdateWebhook = z
  .object({ url: Url.optional(), filters: Filters.optional() })
  .strict()
  .refine((patch) => patch.url !== undefined || patch.filters !== undefined, 'Nothing to change: give url or filters.');
