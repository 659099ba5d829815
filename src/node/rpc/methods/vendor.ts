import { z } from 'zod';
import { TokenAllowanceQuery, TokenBalancesSpec, TokenContract, TokenHolder, TokenPageOptions } from './token-params.ts';
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
];
