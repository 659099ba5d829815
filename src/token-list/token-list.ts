import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { glob } from 'tinyglobby';
import type { Address } from 'viem';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { WORLD_ADDRESSES } from '../chain/world/manifest.ts';
import { WORLD_TOKEN_ADDRESSES } from '../chain/world/price-layer.ts';
import { PriceSourcesSpec } from './price-sources.ts';
import { contentLocation } from '../site/content-dir.ts';
import { ContentError, issuesFromZod, type ContentIssue } from '../site/records.ts';
import { networkFilesGlob } from '../site/network-names.ts';

// Crucible's token list (docs/token-data.md#token-list): content/tokens/<symbol-or-slug>.yaml, where token logos come
// from, never invented. A token is listed on networks by address, and on the local world by the
// id of its contract there: every local devnet has the world at the same addresses, while a real
// network's addresses mean nothing on a devnet that carries its id.

/** The world contracts a token entry may name: the manifest's and the price layer's wrapped ether. */
const WORLD_LISTABLE: Readonly<Record<string, Address>> = { ...WORLD_ADDRESSES, ...WORLD_TOKEN_ADDRESSES };

const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const line = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must not be empty' })
    .max(max, { error: `must be at most ${max} characters` })
    .refine((text) => !/[\r\n]/.test(text), { error: 'must be a single line' });

const address = z.string({ error: 'must be an address' }).regex(/^0x[0-9a-fA-F]{40}$/, { error: 'must be a 20-byte address: "0x" and 40 hex digits' });

const decimalsPhrase = 'must be an integer from 0 to 78';

/** One network's logos (TokenList.logos): the URL of a listed contract's logo, or null. */
export interface TokenLogos {
  logoOf(contract: Address): string | null;
}

/** One file of content/tokens/. */
const tokenListData = z
  .strictObject({
    symbol: line(32),
    name: line(255),
    decimals: z.number({ error: decimalsPhrase }).int({ error: decimalsPhrase }).min(0, { error: decimalsPhrase }).max(78, { error: decimalsPhrase }),
    /** Site-relative path of the logo, a file under public/tokens/. */
    logo: z.string().regex(/^\/tokens\/[a-z0-9-]+\.svg$/, { error: 'must be a site-relative SVG path under /tokens/, such as /tokens/usdc.svg' }),
    /** The token's contract in the local world (its id in the world's manifest), on every local devnet. */
    world: z.string().regex(slugPattern, { error: "must be the id of a contract in the local world's manifest" }).optional(),
    /** Its address per network id (content/networks/<id>.yaml), on the real network. */
    addresses: z.record(z.string().regex(slugPattern, { error: 'must be a network id' }), address).default({}),
    /** A chain's own currency (ETH): no contract anywhere, priced by symbol only. */
    native: z.literal(true).optional(),
    /** The sources that price it (docs/prices.md#sources); absent: it has no price. */
    prices: PriceSourcesSpec.optional(),
  })
  .refine((token) => token.native || token.world !== undefined || Object.keys(token.addresses).length > 0, {
    error: 'must name its world contract, an address on at least one network, or be native: true',
  });

interface TokenListEntry extends z.output<typeof tokenListData> {
  /** The file name without `.yaml`. */
  slug: string;
  /** The file as messages name it. */
  sourcePath: string;
}

export interface TokenList {
  entries: readonly TokenListEntry[];
  /** The absolute URL of the logo of a listed contract, or null. `localWorld`: the network's node is a local devnet. */
  logoOf(network: string, contract: Address, where: { localWorld: boolean }): string | null;
  /** logoOf for one network, as the metadata reader takes it. */
  logos(network: string, where: { localWorld: boolean }): TokenLogos;
  /** A listed contract's symbol and decimals, or null (as logoOf finds it). */
  tokenOf(network: string, contract: Address, where: { localWorld: boolean }): { symbol: string; decimals: number } | null;
  /** The chain currency listed with this symbol (`native: true`, ETH), its logo as an absolute URL; null when none is. */
  nativeCurrency(symbol: string): { symbol: string; name: string; decimals: number; logo: string } | null;
}

export interface TokenListOptions {
  /** The site origin logo URLs start with. */
  siteOrigin: string;
  /** The local world's contracts by manifest id; the world's own manifest unless a test gives another. */
  world?: Readonly<Record<string, Address>>;
}

/** The token list from entries already validated: lookups by network and address, logos as absolute URLs. */
function createTokenList(entries: readonly TokenListEntry[], options: TokenListOptions): TokenList {
  const world: Readonly<Record<string, Address>> = options.world ?? WORLD_LISTABLE;
  const logoUrl = (entry: TokenListEntry) => new URL(entry.logo, options.siteOrigin).href;
  const onWorld = new Map<string, TokenListEntry>();
  const onNetworks = new Map<string, TokenListEntry>();
  for (const entry of entries) {
    const worldAddress = entry.world === undefined ? undefined : world[entry.world];
    if (worldAddress !== undefined) onWorld.set(worldAddress.toLowerCase(), entry);
    for (const [network, contract] of Object.entries(entry.addresses)) onNetworks.set(`${network} ${contract.toLowerCase()}`, entry);
  }
  const entryOf = (network: string, contract: Address, where: { localWorld: boolean }) =>
    where.localWorld ? onWorld.get(contract.toLowerCase()) : onNetworks.get(`${network} ${contract.toLowerCase()}`);
  const logoOf: TokenList['logoOf'] = (network, contract, where) => {
    const entry = entryOf(network, contract, where);
    return entry ? logoUrl(entry) : null;
  };
  const tokenOf: TokenList['tokenOf'] = (network, contract, where) => {
    const entry = entryOf(network, contract, where);
    return entry ? { symbol: entry.symbol, decimals: entry.decimals } : null;
  };
  const nativeCurrency: TokenList['nativeCurrency'] = (symbol) => {
    const entry = entries.find((candidate) => candidate.native && candidate.symbol.toUpperCase() === symbol.toUpperCase());
    return entry ? { symbol: entry.symbol, name: entry.name, decimals: entry.decimals, logo: logoUrl(entry) } : null;
  };
  return { entries, logoOf, tokenOf, logos: (network, where) => ({ logoOf: (contract) => logoOf(network, contract, where) }), nativeCurrency };
}

/**
 * Reads and validates content/tokens/*.yaml under `rootDir` (`dir`: another content folder than the
 * configured one). Throws ContentError naming each file and field: invalid YAML or fields, a logo
 * missing from public/, an unknown network or world contract, a contract listed twice.
 */
export async function loadTokenList(rootDir: string, options: TokenListOptions & { dir?: string }): Promise<TokenList> {
  const { absolute: contentDir, shown: shownDir } = contentLocation(rootDir, options.dir);
  const world: Readonly<Record<string, Address>> = options.world ?? WORLD_LISTABLE;
  const networks = new Set((await glob(networkFilesGlob, { cwd: contentDir })).map((file) => file.slice('networks/'.length, -'.yaml'.length)));
  const issues: ContentIssue[] = [];
  const entries: TokenListEntry[] = [];
  const claimed = new Map<string, string>();
  const claim = (key: string, sourcePath: string, field: string, what: string) => {
    const earlier = claimed.get(key);
    if (earlier === undefined) claimed.set(key, sourcePath);
    else issues.push({ file: sourcePath, field, message: `${what} is already listed by ${earlier}` });
  };

  for (const file of (await glob('tokens/*.yaml', { cwd: contentDir })).sort()) {
    const sourcePath = `${shownDir}/${file}`;
    const slug = file.slice('tokens/'.length, -'.yaml'.length);
    const problem = (field: string, message: string) => issues.push({ file: sourcePath, field, message });
    if (!slugPattern.test(slug)) problem('', 'the file name must be a lower-case slug such as usdc.yaml');
    let data: unknown;
    try {
      data = parseYaml(await readFile(join(contentDir, file), 'utf8'));
    } catch (error) {
      problem('', `not valid YAML: ${(error as Error).message}`);
      continue;
    }
    const parsed = tokenListData.safeParse(data);
    if (!parsed.success) {
      issues.push(...issuesFromZod(sourcePath, parsed.error));
      continue;
    }
    const entry: TokenListEntry = { ...parsed.data, slug, sourcePath };
    // Prices are asked for by symbol (docs/prices.md#sources): one entry per symbol, whatever its case.
    claim(`symbol ${entry.symbol.toUpperCase()}`, sourcePath, 'symbol', `symbol ${entry.symbol}`);
    if (!(await exists(join(rootDir, 'public', entry.logo)))) problem('logo', `no such file: public${entry.logo}`);
    if (entry.world !== undefined) {
      const worldAddress = world[entry.world];
      if (worldAddress === undefined) problem('world', `the local world has no contract with id ${entry.world}`);
      else claim(`world ${worldAddress.toLowerCase()}`, sourcePath, 'world', `world contract ${entry.world}`);
    }
    for (const [network, contract] of Object.entries(entry.addresses)) {
      if (!networks.has(network)) problem(`addresses.${network}`, `no network ${network} in ${shownDir}/networks/`);
      claim(`${network} ${contract.toLowerCase()}`, sourcePath, `addresses.${network}`, `${contract} on ${network}`);
    }
    entries.push(entry);
  }
  if (issues.length > 0) throw new ContentError(issues);
  return createTokenList(entries, options);
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
