import { describe, expect, it } from 'vitest';
import { WORLD_ADDRESSES } from '../../../src/chain/world/manifest.ts';
import { loadTokenList } from '../../../src/token-list/token-list.ts';
import { contentIssues, useContentRoot } from '../../support/content-root.ts';

const world = { 'world-usd': '0x00000000000000000000000000000000000000A1', 'world-ether': '0x00000000000000000000000000000000000000a2' } as const;
const sepoliaUsd = '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238';
const siteOrigin = 'https://crucible.example';

const content = useContentRoot('tokens', 'tokens/usd.svg');
const writeToken = content.write;
const load = () => loadTokenList(content.path(), { siteOrigin, world, dir: 'content' });
const issues = () => contentIssues(load);

describe('the token list', () => {
  it('gives logos as absolute URLs: world contracts on local devnets, addresses on their real network', async () => {
    await writeToken(
      'usd',
      `symbol: USD\nname: World Dollar\ndecimals: 6\nlogo: /tokens/usd.svg\nworld: world-usd\naddresses:\n  ethereum-sepolia: '${sepoliaUsd}'\n`,
    );
    const list = await load();
    expect(list.entries).toMatchObject([{ slug: 'usd', symbol: 'USD', decimals: 6, sourcePath: 'content/tokens/usd.yaml' }]);
    const logo = 'https://crucible.example/tokens/usd.svg';
    // The world is at the same address on every local devnet, whatever id the devnet carries.
    expect(list.logoOf('crucible-testnet', '0x00000000000000000000000000000000000000a1', { localWorld: true })).toBe(logo);
    expect(list.logoOf('ethereum-sepolia', '0x00000000000000000000000000000000000000A1', { localWorld: true })).toBe(logo);
    expect(list.logoOf('ethereum-sepolia', sepoliaUsd.toLowerCase() as `0x${string}`, { localWorld: false })).toBe(logo);
    // A real network's address means nothing on a devnet, and the world's nothing on a real network.
    expect(list.logoOf('ethereum-sepolia', sepoliaUsd, { localWorld: true })).toBeNull();
    expect(list.logoOf('ethereum-sepolia', world['world-usd'], { localWorld: false })).toBeNull();
    expect(list.logoOf('base-sepolia', sepoliaUsd, { localWorld: false })).toBeNull();
    expect(list.logoOf('crucible-testnet', world['world-ether'], { localWorld: true })).toBeNull();
    expect(list.logos('crucible-testnet', { localWorld: true }).logoOf(world['world-usd'])).toBe(logo);
  });

  it('refuses a file naming the file and the field', async () => {
    await writeToken('usd', 'symbol: USD\nname: World Dollar\ndecimals: 79\nlogo: usd.svg\nworld: world-usd\ncolour: green\n');
    expect(await issues()).toEqual(
      expect.arrayContaining([
        { file: 'content/tokens/usd.yaml', field: 'decimals', message: 'must be an integer from 0 to 78' },
        { file: 'content/tokens/usd.yaml', field: 'logo', message: 'must be a site-relative SVG path under /tokens/, such as /tokens/usdc.svg' },
        expect.objectContaining({ file: 'content/tokens/usd.yaml', field: 'colour' }),
      ]),
    );
  });

  it('refuses a missing logo, an unknown network or world contract, a contract listed twice, and bad YAML', async () => {
    await writeToken('a', `symbol: A\nname: A\ndecimals: 18\nlogo: /tokens/a.svg\nworld: world-gold\naddresses:\n  mars-testnet: '${sepoliaUsd}'\n`);
    await writeToken('b', `symbol: B\nname: B\ndecimals: 18\nlogo: /tokens/usd.svg\nworld: world-usd\naddresses:\n  ethereum-sepolia: '${sepoliaUsd}'\n`);
    await writeToken(
      'c',
      `symbol: C\nname: C\ndecimals: 18\nlogo: /tokens/usd.svg\nworld: world-usd\naddresses:\n  ethereum-sepolia: '${sepoliaUsd.toLowerCase()}'\n`,
    );
    await writeToken('d', 'symbol: [D\n');
    await writeToken('e', 'symbol: E\nname: E\ndecimals: 0\nlogo: /tokens/usd.svg\n');
    expect(await issues()).toEqual([
      { file: 'content/tokens/a.yaml', field: 'logo', message: 'no such file: public/tokens/a.svg' },
      { file: 'content/tokens/a.yaml', field: 'world', message: 'the local world has no contract with id world-gold' },
      { file: 'content/tokens/a.yaml', field: 'addresses.mars-testnet', message: 'no network mars-testnet in content/networks/' },
      { file: 'content/tokens/c.yaml', field: 'world', message: 'world contract world-usd is already listed by content/tokens/b.yaml' },
      {
        file: 'content/tokens/c.yaml',
        field: 'addresses.ethereum-sepolia',
        message: `${sepoliaUsd.toLowerCase()} on ethereum-sepolia is already listed by content/tokens/b.yaml`,
      },
      { file: 'content/tokens/d.yaml', field: '', message: expect.stringMatching(/^not valid YAML: /) },
      { file: 'content/tokens/e.yaml', field: '', message: 'must name its world contract, an address on at least one network, or be native: true' },
    ]);
  });

  it("as committed, gives a logo to the world's ERC-20s with metadata, and none to the one without", async () => {
    const list = await loadTokenList(process.cwd(), { siteOrigin });
    const logo = (id: keyof typeof WORLD_ADDRESSES) => list.logoOf('crucible-testnet', WORLD_ADDRESSES[id], { localWorld: true });
    expect(logo('forge')).toBe(`${siteOrigin}/tokens/forge.svg`);
    expect(logo('cusd')).toBe(`${siteOrigin}/tokens/cusd.svg`);
    expect(logo('ember')).toBe(`${siteOrigin}/tokens/ember.svg`);
    expect(logo('slag')).toBe(`${siteOrigin}/tokens/slag.svg`);
    expect(logo('bare')).toBeNull();
  });
});
