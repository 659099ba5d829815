import type { Address } from 'viem';
import { z } from 'zod';
import { decodePageKey } from './token-page-key.ts';

// The params of crucible_getTokenBalances, crucible_getTokenMetadata and crucible_getTokenAllowance (docs/token-data.md#parameters), one source
// for the method registry (a schema per param) and for the core, which parses them again when it is
// called directly. Every message reads after the parameter's name: `[2] options.maxCount must be …`.

/** Contracts one answer may name, and balances one "erc20" page may hold (docs/token-data.md#parameters). */
const MAX_TOKEN_CONTRACTS = 100;
const MAX_PAGE_SIZE = 100;

const addressPhrase = 'must be a 20-byte address: "0x" and 40 hex digits';
const addressSchema = () =>
  z
    .string({ error: addressPhrase })
    .regex(/^0x[0-9a-fA-F]{40}$/, { error: addressPhrase })
    .transform((address) => address.toLowerCase() as Address);

/** [0] of crucible_getTokenBalances: the holder. */
export const TokenHolder = addressSchema().describe('The holder: a 20-byte address.');

/** [0] of crucible_getTokenMetadata: the token contract. */
export const TokenContract = addressSchema().describe('The token contract: a 20-byte address.');

const specNamePhrase = `must be "erc20", "NATIVE_TOKEN" or a list of 1 to ${MAX_TOKEN_CONTRACTS} contract addresses`;
const TokenSpecName = z.enum(['erc20', 'NATIVE_TOKEN'], { error: specNamePhrase });
const ContractList = z
  .array(addressSchema(), { error: specNamePhrase })
  .min(1, { error: `must list at least one contract address` })
  .max(MAX_TOKEN_CONTRACTS, { error: `must list at most ${MAX_TOKEN_CONTRACTS} contract addresses` });

/** [1] of crucible_getTokenBalances: which balances. Omitted or null means "erc20". */
export const TokenBalancesSpec = z
  .union([TokenSpecName, ContractList], { error: specNamePhrase })
  .describe(
    `"erc20": every ERC-20 the address ever received or sent (from the transfer index, paged); "NATIVE_TOKEN": the native balance as one entry whose contractAddress is the zero address; or a list of 1 to ${MAX_TOKEN_CONTRACTS} contract addresses, answered in that order.`,
  );
export type TokenBalancesSpec = z.output<typeof TokenBalancesSpec>;

const pageKeyPhrase = 'must be the pageKey of an earlier answer of this method';
const maxCountPhrase = `must be an integer from 1 to ${MAX_PAGE_SIZE}`;
const optionsPhrase = 'must be an object {"pageKey"?: string, "maxCount"?: integer}';

/** [2] of crucible_getTokenBalances: paging of "erc20" answers (ignored for the other specs). */
export const TokenPageOptions = z
  .strictObject(
    {
      pageKey: z
        .string({ error: pageKeyPhrase })
        .refine((key) => decodePageKey(key) !== null, { error: pageKeyPhrase })
        .optional()
        .describe('The pageKey of the previous answer, to read the next page.'),
      maxCount: z
        .number({ error: maxCountPhrase })
        .int({ error: maxCountPhrase })
        .min(1, { error: maxCountPhrase })
        .max(MAX_PAGE_SIZE, { error: maxCountPhrase })
        .optional()
        .describe(`Balances per page, 1 to ${MAX_PAGE_SIZE} (default ${MAX_PAGE_SIZE}).`),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `has no field ${issue.keys.join(', ')}: only pageKey and maxCount` : optionsPhrase) },
  )
  .describe('Paging of "erc20" answers: {"pageKey"?, "maxCount"?}.');

/** A param that does not fit: `param` names it as the gateway's -32602 does (`[2] options.pageKey`). */
export class TokenParamsError extends Error {
  readonly param: string;
  readonly problem: string;
  constructor(param: string, problem: string) {
    super(`${param} ${problem}`);
    this.name = 'TokenParamsError';
    this.param = param;
    this.problem = problem;
  }
}

/** crucible_getTokenBalances' params as the core uses them; addresses lower-cased. */
export interface TokenBalancesQuery {
  address: Address;
  spec: 'erc20' | 'NATIVE_TOKEN' | Address[];
  /** "erc20" only: the page starts after this contract. */
  after: Address | null;
  maxCount: number;
}

const balancesParamNames = ['address', 'spec', 'options'] as const;

function parseParam<S extends z.ZodType>(schema: S, value: unknown, index: number, names: readonly string[]): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('');
  throw new TokenParamsError(`[${index}] ${names[index]}${path}`, issue.message);
}

function checkCount(params: readonly unknown[], method: string, names: readonly string[], required: number): void {
  if (params.length > names.length) throw new TokenParamsError('params', `of ${method} are at most ${names.length}, got ${params.length}`);
  if (params.length < required) throw new TokenParamsError(`[${params.length}] ${names[params.length]}`, 'is required');
}

/** Parses `(address, spec = "erc20", options?)`; null stands for an omitted param. Throws TokenParamsError. */
export function parseTokenBalancesParams(params: readonly unknown[]): TokenBalancesQuery {
  checkCount(params, 'crucible_getTokenBalances', balancesParamNames, 1);
  const address = parseParam(TokenHolder, params[0], 0, balancesParamNames);
  const rawSpec = params[1] ?? 'erc20';
  // The two kinds are parsed apart so that a wrong list item is named (`[1] spec[3]`), not the whole union.
  const spec = Array.isArray(rawSpec) ? parseParam(ContractList, rawSpec, 1, balancesParamNames) : parseParam(TokenSpecName, rawSpec, 1, balancesParamNames);
  const options = params[2] == null ? {} : parseParam(TokenPageOptions, params[2], 2, balancesParamNames);
  return {
    address,
    spec,
    after: options.pageKey === undefined ? null : decodePageKey(options.pageKey),
    maxCount: options.maxCount ?? MAX_PAGE_SIZE,
  };
}

const metadataParamNames = ['contractAddress'] as const;

/** Parses `(contractAddress)`. Throws TokenParamsError. */
export function parseTokenMetadataParams(params: readonly unknown[]): Address {
  checkCount(params, 'crucible_getTokenMetadata', metadataParamNames, 1);
  return parseParam(TokenContract, params[0], 0, metadataParamNames);
}

const allowancePhrase = 'must be an object {"contract", "owner", "spender"}, each a 20-byte address';

/** [0] of crucible_getTokenAllowance: whose allowance, on which token. */
export const TokenAllowanceQuery = z
  .strictObject(
    {
      contract: addressSchema().describe('The ERC-20 contract.'),
      owner: addressSchema().describe('The holder whose tokens may be spent.'),
      spender: addressSchema().describe('The address allowed to spend them.'),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `has no field ${issue.keys.join(', ')}: only contract, owner and spender` : allowancePhrase) },
  )
  .describe('{"contract", "owner", "spender"}: the token and the two addresses.');
export type TokenAllowanceQuery = z.output<typeof TokenAllowanceQuery>;

const allowanceParamNames = ['query'] as const;

/** Parses `({ contract, owner, spender })`; addresses lower-cased. Throws TokenParamsError. */
export function parseTokenAllowanceParams(params: readonly unknown[]): TokenAllowanceQuery {
  checkCount(params, 'crucible_getTokenAllowance', allowanceParamNames, 1);
  return parseParam(TokenAllowanceQuery, params[0], 0, allowanceParamNames);
}
