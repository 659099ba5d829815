import { parseUnits } from 'viem';
import { contentLocation } from '../site/content-dir.ts';
import { loadNetworks } from '../site/read-content.ts';
import { ContentError, type NetworkRecord } from '../site/records.ts';

/**
 * A faucet network as the faucet uses it: the facts of content/networks/<id>.yaml with
 * the drip and cap already in base units. The file name is the faucet id (docs/website.md#faucet-send).
 */
export interface FaucetNetwork {
  id: string;
  name: string;
  /** EIP-155 chain ID; null for non-EVM networks (Starknet). */
  chainId: number | null;
  vm: NetworkRecord['vm'];
  symbol: string;
  decimals: number;
  /** Block explorer base URL of the real network; transaction links are `${explorer}/tx/${hash}`. */
  explorer: string | null;
  /** Drip as written in the network file, in the native unit (docs/website.md#faucet-send `amount`). */
  dripAmount: string;
  /** Drip in base units (wei). */
  dripWei: bigint;
  /** A recipient holding more than this (base units) is refused with `max_balance_exceeded`. */
  maxBalanceWei: bigint;
  /** One drip per address per network per this window. */
  rateWindowMs: number;
  /** A recipient that needs more gas than this to accept a drip is refused (`invalid_address`). */
  maxDripGas: bigint;
  deprecated: boolean;
  /** The funded network named to callers of a deprecated one. */
  suggestForDeprecated: boolean;
}

function toFaucetNetwork(record: NetworkRecord): FaucetNetwork {
  const { decimals, symbol } = record.nativeCurrency;
  return {
    id: record.id,
    name: record.name,
    chainId: record.chainId,
    vm: record.vm,
    symbol,
    decimals,
    explorer: record.explorer,
    dripAmount: record.drip,
    dripWei: parseUnits(record.drip, decimals),
    maxBalanceWei: parseUnits(record.maxBalance, decimals),
    rateWindowMs: Math.round(record.rateWindowHours * 3_600_000),
    maxDripGas: BigInt(record.maxDripGas),
    deprecated: record.deprecated,
    suggestForDeprecated: record.suggestForDeprecated,
  };
}

/** EVM JSON-RPC (EVM and EraVM) with a chain ID: the only kind the faucet can sign for. */
export function speaksEvmRpc(network: FaucetNetwork): network is FaucetNetwork & { chainId: number } {
  return network.vm !== 'starknet' && network.chainId !== null;
}

/**
 * content/networks/*.yaml under the project root, read and validated by the content model
 * (src/site/read-content.ts), sorted by id: that order is `supportedChains` and the OpenAPI enum.
 */
export async function loadFaucetNetworks(rootDir = '.'): Promise<FaucetNetwork[]> {
  const records = await loadNetworks(rootDir);
  if (records.length === 0) throw new ContentError([{ file: `${contentLocation(rootDir).shown}/networks`, field: '', message: 'no network files found' }]);
  const suggested = records.filter((record) => record.suggestForDeprecated);
  if (suggested.length > 1) {
    throw new ContentError(
      suggested.map((record) => ({
        file: record.sourcePath,
        field: 'suggestForDeprecated',
        message: 'only one network may be suggested instead of deprecated ones',
      })),
    );
  }
  return records.map(toFaucetNetwork).sort((a, b) => a.id.localeCompare(b.id));
}
