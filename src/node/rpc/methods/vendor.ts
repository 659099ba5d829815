import { z } from 'zod';
import { TokenAllowanceQuery, TokenBalancesSpec, TokenContract, TokenHolder, TokenPageOptions } from './token-params.ts';
import { MAX_ASSET_TRANSFERS_PER_PAGE } from '../limits.ts';
import { ASSET_TRANSFER_CATEGORIES, AssetTransfersRequest, assetTransfersRangeProblem } from './transfer-params.ts';
import { defineRpcMethod } from '../method.ts';
import { Address, titled } from '../schemas/primitives.ts';

// The vendor methods (docs/json-rpc.md#vendor-methods), category 'Token data'. Every crucible_<x> listed here is also
// accepted as alchemy_<x> (resolveMethodName in registry.ts), so that clients written for the
// incumbent's SDK work unchanged; the alias needs no entry of its own. The gateway answers them
// itself (`served`): a data product reads the chain and the transfer index, never one upstream call.
// Their params schemas are the ones the token product parses with (token-params.ts, which it
// imports from this registry), so the registry's validation, docs and OpenRPC say exactly what the
// product accepts.

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

const HexWord = z.string().regex(/^0x[0-9a-f]{64}$/);
const HexAmount = z.string().regex(/^0x[0-9a-f]+$/);

const AssetTransfers = titled(
  z.object({
    transfers: z.array(
      z.object({
        blockNum: HexAmount.describe('The block, as a hex number.'),
        uniqueId: z.string().describe('<hash>:external, <hash>:internal:<trace index> or <hash>:log:<log index>.'),
        hash: z.string().describe('The transaction hash.'),
        from: Address,
        to: Address.nullable(),
        value: z
          .number()
          .nullable()
          .describe('The amount in whole units (by the decimals of the token, or of the native coin); null for NFTs and tokens without decimals.'),
        erc721TokenId: HexWord.nullable().describe('ERC-721: the token id as a 32-byte hex word.'),
        erc1155Metadata: z
          .array(z.object({ tokenId: HexWord, value: HexAmount }))
          .nullable()
          .describe('ERC-1155: every id and amount of the log (one for TransferSingle).'),
        tokenId: HexWord.nullable().describe('ERC-721 and specialnft: the token id as a 32-byte hex word.'),
        asset: z.string().nullable().describe("The token's symbol, or the native coin's; null when unknown."),
        category: z.enum(ASSET_TRANSFER_CATEGORIES),
        rawContract: z.object({
          value: HexAmount.nullable().describe('The raw amount in hex (ERC-20: a 32-byte word); null for NFTs.'),
          address: Address.nullable().describe("The token's contract; null for native transfers."),
          decimal: HexAmount.nullable().describe('The decimals in hex; null for NFTs and tokens without decimals.'),
        }),
        metadata: z
          .object({ blockTimestamp: z.string().nullable().describe("The block's time, ISO 8601.") })
          .optional()
          .describe('With withMetadata only.'),
      }),
    ),
    pageKey: z.string().optional().describe('Present when more transfers follow: pass it in the next request.'),
  }),
  'asset transfers',
);

export const vendorMethods = [
  defineRpcMethod({
    name: 'crucible_getTokenBalances',
    summary: 'Returns the ERC-20 balances of an address, all read at one block.',
    description:
      'With "erc20" (the default) every ERC-20 the address ever received or sent, from the transfer index, paged with pageKey and maxCount; with a list of contracts exactly those, in that order; with "NATIVE_TOKEN" the native balance. Every balance of one answer is read at one block in one call to Multicall3. A balance that cannot be read is null and its error says why. Zero balances are listed. Also callable as alchemy_getTokenBalances.',
    category: 'Token data',
    params: [
      { name: 'address', required: true, schema: titled(TokenHolder, 'address'), description: 'The holder.' },
      {
        name: 'spec',
        required: false,
        schema: titled(TokenBalancesSpec, 'token spec'),
        description: 'Which balances: "erc20", "NATIVE_TOKEN" or a list of contracts. Default "erc20".',
      },
      { name: 'options', required: false, schema: titled(TokenPageOptions, 'page options'), description: 'Paging of "erc20": {"pageKey"?, "maxCount"?}.' },
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
    params: [{ name: 'contractAddress', required: true, schema: titled(TokenContract, 'address'), description: 'The token contract.' }],
    result: { name: 'metadata', description: '{ name, symbol, decimals, logo }, each null when unknown.', schema: TokenMetadata },
    computeUnits: 16,
    served: true,
  }),
  defineRpcMethod({
    name: 'crucible_getTokenAllowance',
    summary: 'Returns how many of an owner’s tokens a spender may spend, as a decimal string.',
    description:
      "The ERC-20 allowance(owner, spender) of the contract, read at the head in one eth_call and answered in decimal. A contract that reverts answers the node's error; one that answers no uint256 (no code at the address, another kind of contract) answers -32000 saying so. Also callable as alchemy_getTokenAllowance.",
    category: 'Token data',
    params: [{ name: 'query', required: true, schema: titled(TokenAllowanceQuery, 'allowance query'), description: '{"contract", "owner", "spender"}.' }],
    result: { name: 'allowance', description: 'The allowance in the token’s base units, as a decimal string.', schema: z.string().regex(/^\d+$/) },
    computeUnits: 26,
    served: true,
  }),
  defineRpcMethod({
    name: 'crucible_getAssetTransfers',
    summary: 'Returns the transfers of ether and tokens from or to an address, from the transfer index, one page at a time.',
    description: `Every category of transfer: external (a successful transaction's own ether), internal (ether moved by calls inside a transaction, from the node's call traces), erc20, erc721, erc1155 and specialnft (CryptoPunks-style NFTs). Filter by blocks, fromAddress, toAddress and token contracts; oldest first or newest first; at most ${MAX_ASSET_TRANSFERS_PER_PAGE.toLocaleString('en-US')} a page (maxCount, hex), the next page by pageKey. Transfers of failed transactions, and of calls that reverted, are never listed. A network whose node offers no call traces answers "internal" with -32602. Also callable as alchemy_getAssetTransfers.`,
    category: 'Token data',
    params: [
      {
        name: 'request',
        required: true,
        schema: titled(AssetTransfersRequest, 'asset transfers request'),
        description:
          'What to list: {"category": [...], "fromBlock"?, "toBlock"?, "fromAddress"?, "toAddress"?, "contractAddresses"?, "order"?, "withMetadata"?, "excludeZeroValue"?, "maxCount"?, "pageKey"?}.',
      },
    ],
    result: {
      name: 'transfers',
      description:
        '{ transfers: [{ blockNum, uniqueId, hash, from, to, value, erc721TokenId, erc1155Metadata, tokenId, asset, category, rawContract, metadata? }], pageKey? }',
      schema: AssetTransfers,
    },
    computeUnits: 120,
    served: true,
    checkParams: (params) => {
      const problem = assetTransfersRangeProblem(params[0] as Parameters<typeof assetTransfersRangeProblem>[0]);
      return problem ? { index: 0, problem } : null;
    },
  }),
];
