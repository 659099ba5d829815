import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { glob } from 'tinyglobby';
import { parseUnits } from 'viem';
import { parse as parseYaml } from 'yaml';
import { contentDir } from '../site/content-dir.ts';
import { ContentError, issuesFromZod, type ContentIssue, type NetworkRecord } from '../site/records.ts';
import { networkData } from '../site/schema.ts';

/**
 * A faucet network as the faucet uses it: the facts of content/networks/<id>.yaml with
 * the drip and cap already in base units. The file name is the faucet id (spec 4.1).
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
  /** Drip as written in the network file, in the native unit (spec 2.2 `amount`). */
  dripAmount: string;
  /** Drip in base units (wei). */
  dripWei: bigint;
  /** A recipient holding more than this (base units) is refused with `max_balance_exceeded`. */
  maxBalanceWei: bigint;
  /** One drip per address per network per this window. */
  rateWindowMs: number;
  deprecated: boolean;
}

export function toFaucetNetwork(record: NetworkRecord): FaucetNetwork {
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
    deprecated: record.deprecated,
  };
}

/** EVM JSON-RPC (EVM and EraVM) with a chain ID: the only kind the faucet can sign for. */
export function speaksEvmRpc(network: FaucetNetwork): network is FaucetNetwork & { chainId: number } {
  return network.vm !== 'starknet' && network.chainId !== null;
}

/**
 * Reads content/networks/*.yaml with the content model's schema (src/site/schema.ts), sorted
 * by id: that order is the faucet's `supportedChains` order.
 */
export async function loadFaucetNetworks(dir: string = contentDir()): Promise<FaucetNetwork[]> {
  const issues: ContentIssue[] = [];
  const networks: FaucetNetwork[] = [];
  for (const file of (await glob('networks/*.yaml', { cwd: dir })).sort()) {
    const sourcePath = `${dir}/${file}`;
    let data: unknown;
    try {
      data = parseYaml(await readFile(join(dir, file), 'utf8'));
    } catch (error) {
      issues.push({ file: sourcePath, field: '', message: `not valid YAML: ${(error as Error).message}` });
      continue;
    }
    const parsed = networkData.safeParse(data);
    if (!parsed.success) issues.push(...issuesFromZod(sourcePath, parsed.error));
    else networks.push(toFaucetNetwork({ ...parsed.data, id: file.slice('networks/'.length, -'.yaml'.length), sourcePath }));
  }
  if (issues.length) throw new ContentError(issues);
  if (networks.length === 0) throw new ContentError([{ file: `${dir}/networks`, field: '', message: 'no network files found' }]);
  return networks.sort((a, b) => a.id.localeCompare(b.id));
}
