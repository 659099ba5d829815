import { z } from 'zod';
import { defineRpcMethod } from '../method.ts';
import { Address, kind, titled } from '../schemas/primitives.ts';
import { accountParam } from './params.ts';

// The vendor methods (platform §4), category 'Token data'. Every crucible_<x> listed here is also
// accepted as alchemy_<x> (resolveMethodName in registry.ts), so that clients written for the
// incumbent's SDK work unchanged; the alias needs no entry of its own. The gateway answers them
// itself (`served`): a data product reads the chain and the transfer index, never one upstream call.

/** Contracts one answer may name (platform §4). */
export const MAX_TOKEN_CONTRACTS = 100;

const tokenSpecPhrase = `must be "erc20", "NATIVE_TOKEN" or a list of 1 to ${MAX_TOKEN_CONTRACTS} contract addresses`;
const TokenSpec = kind(
  z
    .union([z.literal('erc20'), z.literal('NATIVE_TOKEN'), z.array(Address).min(1).max(MAX_TOKEN_CONTRACTS)], { error: tokenSpecPhrase })
    .describe(
      `"erc20": every ERC-20 the address ever received or sent (from the transfer index, paged); "NATIVE_TOKEN": the native balance as one entry whose contractAddress is the zero address; or a list of 1 to ${MAX_TOKEN_CONTRACTS} contract addresses, answered in that order.`,
    ),
  'token spec',
  tokenSpecPhrase,
);

const pageKeyPhrase = 'must be the pageKey of a previous answer';
const maxCountPhrase = 'must be an integer from 1 to 100';
const pageOptionsPhrase = 'must be an object {"pageKey"?: string, "maxCount"?: integer from 1 to 100}';
const PageOptions = kind(
  z
    .strictObject(
      {
        pageKey: z
          .string({ error: pageKeyPhrase })
          .min(1, { error: pageKeyPhrase })
          .max(200, { error: pageKeyPhrase })
          .optional()
          .describe('The pageKey of the previous answer, to read the next page.'),
        maxCount: z
          .number({ error: maxCountPhrase })
          .int({ error: maxCountPhrase })
          .min(1, { error: maxCountPhrase })
          .max(100, { error: maxCountPhrase })
          .optional()
          .describe('Balances per page, 1 to 100 (default 100).'),
      },
      { error: pageOptionsPhrase },
    )
    .describe('Paging of "erc20" answers.'),
  'page options',
  pageOptionsPhrase,
);

/** A 32-byte zero-padded hex quantity: 0x and 64 hex digits. */
const TokenBalanceWord = z.string().regex(/^0x[0-9a-f]{64}$/);

const TokenBalances = titled(
  z.object({
    address: Address,
    tokenBalances: z.array(
      z.object({
        contractAddress: Address,
        tokenBalance: TokenBalanceWord.nullable().describe('The balance as a 32-byte hex word, or null when it could not be read.'),
        error: z.string().nullable().describe('Why the balance could not be read (the contract reverted, is not a contract…), or null.'),
      }),
    ),
    pageKey: z.string().optional().describe('Present when more "erc20" balances remain: pass it in options to read them.'),
  }),
  'token balances',
);

const TokenMetadata = titled(
  z.object({
    name: z.string().nullable(),
    symbol: z.string().nullable(),
    decimals: z.number().int().nullable(),
    logo: z.string().nullable().describe("A logo URL from Crucible's token list, or null."),
  }),
  'token metadata',
);

export const vendorMethods = [
  defineRpcMethod({
    name: 'crucible_getTokenBalances',
    summary: 'Returns the ERC-20 balances of an address, all read at one block.',
    description:
      'With "erc20" (the default) every ERC-20 the address ever received or sent, from the transfer index, paged with pageKey and maxCount; with a list of contracts exactly those, in that order; with "NATIVE_TOKEN" the native balance. Every balance of one answer is read at one block in one call to Multicall3. A balance that cannot be read is null and its error says why. Zero balances are listed. Also callable as alchemy_getTokenBalances.',
    category: 'Token data',
    params: [
      { ...accountParam, description: 'The holder.' },
      { name: 'spec', required: false, schema: TokenSpec, description: 'Which balances: "erc20", "NATIVE_TOKEN" or a list of contracts. Default "erc20".' },
      { name: 'options', required: false, schema: PageOptions, description: 'Paging of "erc20": {"pageKey"?, "maxCount"?}.' },
    ],
    result: { name: 'balances', description: '{ address, tokenBalances: [{ contractAddress, tokenBalance, error }], pageKey? }', schema: TokenBalances },
    computeUnits: 26,
    served: true,
  }),
  defineRpcMethod({
    name: 'crucible_getTokenMetadata',
    summary: 'Returns the name, symbol, decimals and logo of a token contract.',
    description:
      "name and symbol are decoded from string or bytes32 answers, trimmed of NULs and capped at 255 characters; decimals above 78 or missing are null; the logo comes from Crucible's token list, never invented. An address that is not a contract answers all null. Also callable as alchemy_getTokenMetadata.",
    category: 'Token data',
    params: [{ name: 'contractAddress', required: true, schema: Address, description: 'The token contract.' }],
    result: { name: 'metadata', description: '{ name, symbol, decimals, logo }, each null when unknown.', schema: TokenMetadata },
    computeUnits: 16,
    served: true,
  }),
];
