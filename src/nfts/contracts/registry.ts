import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { glob } from 'tinyglobby';
import type { Address } from 'viem';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { WORLD_ADDRESSES } from '../../chain/world/manifest.ts';
import { contentLocation } from '../../site/content-dir.ts';
import { ContentError, issuesFromZod, type ContentIssue } from '../../site/records.ts';
import type { MarketplaceMetadata, NftCollection } from '../nft-sources.ts';
import { networkFilesGlob } from '../../site/network-names.ts';

// The collections registry (docs/nft-data.md#collections-registry): content/collections/<slug>.yaml says what a marketplace
// would say of a collection (its name, description, links, images, safelist status, floor price),
// which the chain cannot: `contract.marketplaceMetadata` and `collection` come from it, null where it
// says nothing. A collection is listed on networks by address and on the local world by the id of its
// contract there (every local devnet has the world at the same addresses, while a real network's
// addresses mean nothing on a devnet that carries its id).

const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const singleLine = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(max, { error: `must be at most ${max} characters` })
    .refine((value) => !/[\r\n]/.test(value), { error: 'must be a single line' });

const httpsUrl = z.url({ protocol: /^https$/, error: 'must be an https URL' });
/** An image: an https URL, or a site-relative path of a file under public/ (the local world's images). */
const imageUrl = z.union([httpsUrl, z.string().regex(/^\/[^\s?#]+$/)], {
  error: 'must be an https URL or a site-relative path such as /world/nft/relics/1.svg',
});
const contractAddress = z.string({ error: 'must be an address' }).regex(/^0x[0-9a-fA-F]{40}$/, { error: 'must be a 20-byte address: "0x" and 40 hex digits' });

/** OpenSea's safelist states, which marketplaceMetadata.safelistRequestStatus reports. */
const SAFELIST_STATES = ['verified', 'approved', 'requested', 'not_requested'] as const;

/** One file of content/collections/; the file name is the collection's slug. */
const collectionData = z
  .strictObject({
    name: singleLine(255),
    description: z.string().trim().min(1, { error: 'must not be empty' }).max(2000, { error: 'must be at most 2000 characters' }).optional(),
    externalUrl: httpsUrl.optional(),
    imageUrl: imageUrl.optional(),
    bannerImageUrl: imageUrl.optional(),
    /** The collection's X (Twitter) handle, without the @. */
    socialUsername: z
      .string()
      .regex(/^[A-Za-z0-9_]{1,15}$/, { error: 'must be a handle of 1 to 15 letters, digits or _, without the @' })
      .optional(),
    discordUrl: httpsUrl.optional(),
    safelistRequestStatus: z.enum(SAFELIST_STATES, { error: `must be one of ${SAFELIST_STATES.join(', ')}` }).optional(),
    /** In the network's native currency. */
    floorPrice: z.number({ error: 'must be a number' }).nonnegative({ error: 'must not be negative' }).optional(),
    /** When the entry's facts were last checked: marketplaceMetadata.lastIngestedAt. */
    updated: z.iso.date({ error: 'must be a date written as YYYY-MM-DD' }).optional(),
    /** The collection's contract in the local world (its id in the world's manifest), on every local devnet. */
    world: z.string().regex(slugPattern, { error: "must be the id of a contract in the local world's manifest" }).optional(),
    /** Its address per network id (content/networks/<id>.yaml), on the real network. */
    addresses: z.record(z.string().regex(slugPattern, { error: 'must be a network id' }), contractAddress).default({}),
  })
  .refine((entry) => entry.world !== undefined || Object.keys(entry.addresses).length > 0, {
    error: 'must name its world contract or an address on at least one network',
  });

export interface CollectionEntry extends z.output<typeof collectionData> {
  /** The file name without `.yaml`. */
  slug: string;
  /** The file as messages name it. */
  sourcePath: string;
}

export interface CollectionsRegistry {
  entries: readonly CollectionEntry[];
  /** The entry listing `contract` on `network`. `localWorld`: the network's node is a local devnet, where world ids apply. */
  entryOf(network: string, contract: Address, where: { localWorld: boolean }): CollectionEntry | null;
}

interface RegistryOptions {
  /** The site origin site-relative image paths are made absolute with. */
  siteOrigin: string;
  /** The local world's contracts by manifest id; the world's own manifest unless a test gives another. */
  world?: Readonly<Record<string, Address>>;
  /** Another content folder than the configured one. */
  dir?: string;
}

/** docs/nft-data.md#collections-registry `contract.marketplaceMetadata` of a contract: what its registry entry says, every field null without one. */
export function marketplaceMetadataOf(entry: CollectionEntry | null): MarketplaceMetadata {
  return {
    floorPrice: entry?.floorPrice ?? null,
    collectionName: entry?.name ?? null,
    collectionSlug: entry?.slug ?? null,
    safelistRequestStatus: entry?.safelistRequestStatus ?? null,
    imageUrl: entry?.imageUrl ?? null,
    description: entry?.description ?? null,
    externalUrl: entry?.externalUrl ?? null,
    socialUsername: entry?.socialUsername ?? null,
    discordUrl: entry?.discordUrl ?? null,
    bannerImageUrl: entry?.bannerImageUrl ?? null,
    lastIngestedAt: entry?.updated ? new Date(`${entry.updated}T00:00:00Z`).toISOString() : null,
  };
}

/** docs/nft-data.md#collections-registry `collection`: null for a contract the registry does not list. */
export function collectionOf(entry: CollectionEntry | null): NftCollection | null {
  return entry ? { name: entry.name, slug: entry.slug, externalUrl: entry.externalUrl ?? null, bannerImageUrl: entry.bannerImageUrl ?? null } : null;
}

/**
 * Reads and validates content/collections/*.yaml under `rootDir`. Throws ContentError naming each
 * file and field: invalid YAML or fields, an image missing from public/, an unknown network or world
 * contract, a contract listed twice.
 */
export async function loadCollectionsRegistry(rootDir: string, options: RegistryOptions): Promise<CollectionsRegistry> {
  const { absolute: contentDir, shown: shownDir } = contentLocation(rootDir, options.dir);
  const world: Readonly<Record<string, Address>> = options.world ?? WORLD_ADDRESSES;
  const networks = new Set((await glob(networkFilesGlob, { cwd: contentDir })).map((file) => file.slice('networks/'.length, -'.yaml'.length)));
  const issues: ContentIssue[] = [];
  const entries: CollectionEntry[] = [];
  const listed = new Map<string, CollectionEntry>();

  for (const file of (await glob('collections/*.yaml', { cwd: contentDir })).sort()) {
    const sourcePath = `${shownDir}/${file}`;
    const problem = (field: string, message: string) => issues.push({ file: sourcePath, field, message });
    const slug = file.slice('collections/'.length, -'.yaml'.length);
    if (!slugPattern.test(slug)) problem('', 'the file name must be a lower-case slug such as crucible-relics.yaml');
    let parsed: ReturnType<typeof collectionData.safeParse>;
    try {
      parsed = collectionData.safeParse(parseYaml(await readFile(join(contentDir, file), 'utf8')));
    } catch (error) {
      problem('', `not valid YAML: ${(error as Error).message}`);
      continue;
    }
    if (!parsed.success) {
      issues.push(...issuesFromZod(sourcePath, parsed.error));
      continue;
    }
    const entry: CollectionEntry = { ...parsed.data, slug, sourcePath };
    for (const field of ['imageUrl', 'bannerImageUrl'] as const) {
      const path = entry[field];
      if (path?.startsWith('/')) {
        if (!(await exists(join(rootDir, 'public', path)))) problem(field, `no such file: public${path}`);
        entry[field] = new URL(path, options.siteOrigin).href;
      }
    }
    const keys: Array<[key: string, field: string, what: string]> = [];
    if (entry.world !== undefined) {
      const address = world[entry.world];
      if (address === undefined) problem('world', `the local world has no contract with id ${entry.world}`);
      else keys.push([`world ${address.toLowerCase()}`, 'world', `world contract ${entry.world}`]);
    }
    for (const [network, contract] of Object.entries(entry.addresses)) {
      if (!networks.has(network)) problem(`addresses.${network}`, `no network ${network} in ${shownDir}/networks/`);
      keys.push([`${network} ${contract.toLowerCase()}`, `addresses.${network}`, `${contract} on ${network}`]);
    }
    for (const [key, field, what] of keys) {
      const earlier = listed.get(key);
      if (earlier) problem(field, `${what} is already listed by ${earlier.sourcePath}`);
      else listed.set(key, entry);
    }
    entries.push(entry);
  }
  if (issues.length > 0) throw new ContentError(issues);
  return {
    entries,
    entryOf: (network, contract, where) => listed.get(where.localWorld ? `world ${contract.toLowerCase()}` : `${network} ${contract.toLowerCase()}`) ?? null,
  };
}

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );
