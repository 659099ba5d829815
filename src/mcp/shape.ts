import { formatUnits, getAddress } from 'viem';

// What a tool's answer says beyond the API's own (docs/mcp.md#answers): addresses checksummed
// (EIP-55) wherever a value or a key is one, and amounts with their decimals applied beside the
// raw value. A node's answers (blocks, transactions, traces, proofs) carry wei as hex quantities:
// `value` of a transfer (an object with `from`) and `balance` get `valueFormatted` and
// `balanceFormatted` in the network's native currency. Token balances
// (`crucible_getTokenBalances`) get `balance`, `decimals` and `symbol` from the token's metadata.
// The data products' other answers carry both already (simulations' `rawAmount` and `amount`).

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const QUANTITY = /^0x[0-9a-fA-F]{1,64}$/;

/** Keys whose 20-byte values are not addresses (a token id, call data, a storage word). */
const NOT_ADDRESSES = new Set(['tokenId', 'id', 'data', 'input', 'output', 'topics', 'key', 'value', 'slot', 'extraData', 'logsBloom', 'returnData']);

export interface Currency {
  symbol: string;
  decimals: number;
}

/** What a token's balance is written with; null: not known (not a token, or its metadata said nothing). */
export type TokenFacts = ReadonlyMap<string, Currency | null>;

/** A hex quantity in the currency's units, `1.5 ETH`. */
export function formatAmount(raw: string, currency: Currency): string {
  return `${formatUnits(BigInt(raw), currency.decimals)} ${currency.symbol}`;
}

/** Every address in the answer checksummed, keys (a prestate's accounts) and values alike. */
export function checksummed(value: unknown, key?: string): unknown {
  if (typeof value === 'string') return ADDRESS.test(value) && !NOT_ADDRESSES.has(key ?? '') ? getAddress(value) : value;
  if (Array.isArray(value)) return value.map((item) => checksummed(item, key));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [ADDRESS.test(name) ? getAddress(name) : name, checksummed(item, name)]));
}

/** A node's answer with its wei amounts formatted beside them. */
export function withNativeAmounts(value: unknown, currency: Currency): unknown {
  if (Array.isArray(value)) return value.map((item) => withNativeAmounts(item, currency));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  const object = value as Record<string, unknown>;
  for (const [name, item] of Object.entries(object)) {
    out[name] = withNativeAmounts(item, currency);
    const isWei = typeof item === 'string' && QUANTITY.test(item) && (name === 'balance' || (name === 'value' && 'from' in object));
    if (isWei) out[`${name}Formatted`] = formatAmount(item, currency);
  }
  return out;
}

/** The zero address names the native currency in a token balances answer (docs/token-data.md). */
const NATIVE_TOKEN = '0x0000000000000000000000000000000000000000';

/** The contracts of a token balances answer (`{ tokenBalances: [{ contractAddress, tokenBalance }] }`), lower-case, the native currency left out. */
export function tokenContractsOf(value: unknown): string[] {
  const balances = (value as { tokenBalances?: unknown } | null)?.tokenBalances;
  if (!Array.isArray(balances)) return [];
  const contracts = balances.map((item) => (item as { contractAddress?: unknown }).contractAddress);
  return [
    ...new Set(contracts.filter((address): address is string => typeof address === 'string' && ADDRESS.test(address)).map((a) => a.toLowerCase())),
  ].filter((address) => address !== NATIVE_TOKEN);
}

/** A token balances answer with each balance in its token's units beside the raw one. */
export function withTokenAmounts(value: unknown, facts: TokenFacts, native: Currency): unknown {
  const answer = value as { tokenBalances?: unknown } | null;
  if (!answer || !Array.isArray(answer.tokenBalances)) return value;
  return {
    ...answer,
    tokenBalances: answer.tokenBalances.map((item) => {
      const { contractAddress, tokenBalance } = item as { contractAddress?: unknown; tokenBalance?: unknown };
      if (typeof contractAddress !== 'string' || typeof tokenBalance !== 'string' || !QUANTITY.test(tokenBalance)) return item;
      const address = contractAddress.toLowerCase();
      const currency = address === NATIVE_TOKEN ? native : facts.get(address);
      if (!currency) return item;
      return { ...(item as object), balance: formatUnits(BigInt(tokenBalance), currency.decimals), decimals: currency.decimals, symbol: currency.symbol };
    }),
  };
}
