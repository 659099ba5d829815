import { z } from 'zod';

// What the webhook API accepts (docs/webhooks.md#webhook-object): the server validates with these schemas and
// /openapi.json describes them; the dashboard's webhook form imports them to check its input before
// sending it, so this module imports nothing but zod. Each refusal's message is a sentence about
// its field. Rules that depend on the server's mode (https only, public hosts) stay with the store
// (webhook.ts), which judges the same input again.

export const WEBHOOK_TYPES = ['NFT_ACTIVITY', 'NFT_METADATA_UPDATE', 'ADDRESS_ACTIVITY', 'MINED_TRANSACTION', 'DROPPED_TRANSACTION'] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];
/** The types that hear of one app's broadcasts, and name it (`appId`). */
export const TRANSACTION_WEBHOOK_TYPES = ['MINED_TRANSACTION', 'DROPPED_TRANSACTION'] as const satisfies readonly WebhookType[];
/** The types whose filters name NFTs. */
export const NFT_WEBHOOK_TYPES = ['NFT_ACTIVITY', 'NFT_METADATA_UPDATE'] as const satisfies readonly WebhookType[];

/** The incumbent's sixth type, which Crucible does not offer: its refusal, wherever it is asked for. */
export const GRAPHQL_REFUSAL =
  'GRAPHQL webhooks (custom GraphQL queries over block data) are not supported here; use ADDRESS_ACTIVITY, MINED_TRANSACTION, DROPPED_TRANSACTION, NFT_ACTIVITY or NFT_METADATA_UPDATE.';

/** Contract addresses, token ids and exact tokens one webhook may filter on. */
export const MAX_FILTER_ENTRIES = 1000;
/** An app id, as src/apps/ makes them (`app_` and hex) or as the CLI was given one. */
const MAX_APP_ID_LENGTH = 100;
export const MAX_NAME_LENGTH = 100;
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

const NftToken = z
  .object({ contractAddress: address, tokenId }, { error: 'Each token is an object with contractAddress and tokenId.' })
  .strict()
  .describe('One token of one contract.');

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
      tokens: z
        .array(NftToken, { error: 'The tokens are a list of { contractAddress, tokenId } objects.' })
        .max(MAX_FILTER_ENTRIES, `List at most ${MAX_FILTER_ENTRIES} tokens.`)
        .optional()
        .describe('Exact tokens, each matched besides what contractAddresses and tokenIds select (the incumbent SDK’s NFT filters with a token id land here).'),
    },
    { error: 'The filters are an object with contractAddresses, tokenIds and tokens.' },
  )
  .strict();

export const WebhookTypeSchema = z
  .enum(WEBHOOK_TYPES, { error: (issue) => (issue.input === 'GRAPHQL' ? GRAPHQL_REFUSAL : `The type is one of ${WEBHOOK_TYPES.join(', ')}.`) })
  .describe(
    'NFT_ACTIVITY: NFT transfers (ERC-721, ERC-1155, legacy). NFT_METADATA_UPDATE: a token’s metadata changed on refresh. ADDRESS_ACTIVITY: every native, internal, ERC-20, ERC-721 and ERC-1155 transfer touching a listed address. MINED_TRANSACTION and DROPPED_TRANSACTION: a transaction the app `appId` broadcast through the gateway was mined, or dropped (replaced, or gone from the mempool). GRAPHQL is not offered.',
  );

const addressListMessage = 'The addresses are a list of 0x addresses (0x followed by 40 hexadecimal digits).';
const walletAddress = z.string({ error: addressListMessage }).regex(ADDRESS_PATTERN, addressListMessage);
/** The addresses of an ADDRESS_ACTIVITY webhook; the store caps their number (WEBHOOK_MAX_ADDRESSES, 100,000 by default). */
export const AddressList = z.array(walletAddress, { error: addressListMessage }).describe('0x addresses; compared case-blind, stored lowercase.');

const appIdMessage = `The appId is the id of one of your apps, 1 to ${MAX_APP_ID_LENGTH} characters.`;
const AppId = z
  .string({ error: appIdMessage })
  .min(1, appIdMessage)
  .max(MAX_APP_ID_LENGTH, appIdMessage)
  .describe('MINED_TRANSACTION and DROPPED_TRANSACTION: the app (of this account) whose broadcasts the webhook hears.');
const nameMessage = `The name is text of at most ${MAX_NAME_LENGTH} characters.`;
const Name = z.string({ error: nameMessage }).max(MAX_NAME_LENGTH, nameMessage).describe('A label for the webhook.');

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
    filters: Filters.optional().describe('NFT_ACTIVITY and NFT_METADATA_UPDATE: which NFTs; absent or empty: every one.'),
    addresses: AddressList.optional().describe('ADDRESS_ACTIVITY: the addresses to listen to (change them in place at /addresses).'),
    appId: AppId.optional(),
    name: Name.optional(),
  })
  .strict();

export const UpdateWebhook = z
  .object({ url: Url.optional(), filters: Filters.optional(), name: Name.nullable().optional() })
  .strict()
  .refine((patch) => patch.url !== undefined || patch.filters !== undefined || patch.name !== undefined, 'Nothing to change: give url, filters or name.');

/** An ADDRESS_ACTIVITY webhook's addresses changed in place. */
export const ChangeAddresses = z
  .object({
    add: AddressList.optional().describe('Listened to from now on; ones already listed stay.'),
    remove: AddressList.optional().describe('No longer listened to; ones not listed are ignored. An address in both lists is removed.'),
  })
  .strict()
  .refine((change) => change.add !== undefined || change.remove !== undefined, 'Nothing to change: give add or remove.');

/** An ADDRESS_ACTIVITY webhook's addresses replaced whole. */
export const ReplaceAddresses = z.object({ addresses: AddressList }).strict();
