import { describe, expect, it } from 'vitest';
import { WORLD_ADDRESSES } from '../../../../src/chain/world/manifest.ts';
import { collectionOf, loadCollectionsRegistry, marketplaceMetadataOf } from '../../../../src/nfts/contracts/registry.ts';
import { contentIssues, useContentRoot } from '../../../support/content-root.ts';

const siteOrigin = 'https://crucible.example';
const world = { 'world-art': '0x00000000000000000000000000000000000000A1', 'world-pass': '0x00000000000000000000000000000000000000a2' } as const;
const sepoliaArt = '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238';

const content = useContentRoot('collections', 'art/logo.svg');
const writeEntry = content.write;
const load = () => loadCollectionsRegistry(content.path(), { siteOrigin, world, dir: 'content' });
const issues = () => contentIssues(load);

describe('the collections registry', () => {
  it('gives an entry’s marketplace metadata and collection, world entries on local devnets and addresses on their network', async () => {
    await writeEntry(
      'art-blocks',
      [
        'name: Art',
        'description: Generative art.',
        'externalUrl: https://art.example',
        'imageUrl: /art/logo.svg',
        'bannerImageUrl: https://cdn.example/banner.png',
        'socialUsername: art_example',
        'discordUrl: https://discord.gg/art',
        'safelistRequestStatus: verified',
        'floorPrice: 1.25',
        'updated: 2026-11-01',
        'world: world-art',
        `addresses: { ethereum-sepolia: "${sepoliaArt}" }`,
      ].join('\n'),
    );
    const registry = await load();
    const local = registry.entryOf('ethereum-sepolia', world['world-art'], { localWorld: true });
    expect(registry.entryOf('ethereum-sepolia', sepoliaArt.toLowerCase() as `0x${string}`, { localWorld: false })).toBe(local);
    expect(registry.entryOf('ethereum-sepolia', sepoliaArt, { localWorld: true })).toBeNull();
    expect(registry.entryOf('base-sepolia', sepoliaArt, { localWorld: false })).toBeNull();
    expect(marketplaceMetadataOf(local)).toEqual({
      floorPrice: 1.25,
      collectionName: 'Art',
      collectionSlug: 'art-blocks',
      safelistRequestStatus: 'verified',
      imageUrl: 'https://crucible.example/art/logo.svg',
      description: 'Generative art.',
      externalUrl: 'https://art.example',
      socialUsername: 'art_example',
      discordUrl: 'https://discord.gg/art',
      bannerImageUrl: 'https://cdn.example/banner.png',
      lastIngestedAt: '2026-11-01T00:00:00.000Z',
    });
    expect(collectionOf(local)).toEqual({
      name: 'Art',
      slug: 'art-blocks',
      externalUrl: 'https://art.example',
      bannerImageUrl: 'https://cdn.example/banner.png',
    });
  });

  it('says null for every field an entry leaves out, and for a contract it does not list', async () => {
    await writeEntry('pass', 'name: Pass\nworld: world-pass\n');
    const entry = (await load()).entryOf('any-devnet', world['world-pass'], { localWorld: true });
    expect(marketplaceMetadataOf(entry)).toEqual({ ...marketplaceMetadataOf(null), collectionName: 'Pass', collectionSlug: 'pass' });
    expect(collectionOf(entry)).toEqual({ name: 'Pass', slug: 'pass', externalUrl: null, bannerImageUrl: null });
    expect(Object.values(marketplaceMetadataOf(null)).every((value) => value === null)).toBe(true);
    expect(collectionOf(null)).toBeNull();
  });

  it('names the file and field of every bad entry', async () => {
    await writeEntry('bad-fields', 'name: Bad\nexternalUrl: http://insecure.example\nsafelistRequestStatus: maybe\nfloorPrice: -1\nworld: world-art\n');
    await writeEntry('bad-yaml', 'name: [unclosed\n');
    await writeEntry('nowhere', 'name: Nowhere\n');
    await writeEntry('unknown', `name: Unknown\nworld: no-such-contract\nimageUrl: /art/missing.png\naddresses: { mars-testnet: "${sepoliaArt}" }\n`);
    await writeEntry('art', 'name: Art\nworld: world-art\n');
    await writeEntry('extra', 'name: Extra\nworld: world-pass\nextra: field\n');
    await writeEntry('twice', `name: Twice\nworld: world-art\naddresses: { ethereum-sepolia: "${sepoliaArt}" }\n`);
    await writeEntry('twice-again', `name: Twice again\naddresses: { ethereum-sepolia: "${sepoliaArt.toLowerCase()}" }\n`);
    const found = await issues();
    const at = (slug: string) => found.filter((issue) => issue.file === `content/collections/${slug}.yaml`).map((issue) => `${issue.field}: ${issue.message}`);
    expect(at('bad-fields')).toEqual([
      'externalUrl: must be an https URL',
      'safelistRequestStatus: must be one of verified, approved, requested, not_requested',
      'floorPrice: must not be negative',
    ]);
    expect(at('bad-yaml')).toEqual([expect.stringMatching(/^: not valid YAML/)]);
    expect(at('nowhere')).toEqual([': must name its world contract or an address on at least one network']);
    expect(at('unknown')).toEqual([
      'imageUrl: no such file: public/art/missing.png',
      'world: the local world has no contract with id no-such-contract',
      'addresses.mars-testnet: no network mars-testnet in content/networks/',
    ]);
    expect(at('extra')).toEqual(['extra: Unrecognized key: "extra"']);
    // Files are read in name order: twice-again.yaml before twice.yaml.
    expect(at('twice')).toEqual([
      'world: world contract world-art is already listed by content/collections/art.yaml',
      `addresses.ethereum-sepolia: ${sepoliaArt} on ethereum-sepolia is already listed by content/collections/twice-again.yaml`,
    ]);
    expect([...at('art'), ...at('twice-again')]).toEqual([]);
  });

  it('loads the committed registry: the local world’s collections', async () => {
    const registry = await loadCollectionsRegistry(process.cwd(), { siteOrigin, dir: 'content' });
    const slugOf = (id: keyof typeof WORLD_ADDRESSES) => registry.entryOf('crucible-testnet', WORLD_ADDRESSES[id], { localWorld: true })?.slug ?? null;
    expect({ relics: slugOf('relics'), materials: slugOf('materials'), punks: slugOf('punks'), airdrop: slugOf('airdrop'), forge: slugOf('forge') }).toEqual({
      relics: 'crucible-relics',
      materials: 'crucible-materials',
      punks: 'crucible-punks',
      airdrop: 'drop-pass',
      forge: null,
    });
  });
});
