import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createPublicClient, http } from 'viem';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WORLD_POOLS } from '../../../src/chain/world/price-layer.ts';
import { uniswapV2PairAbi } from '../../../src/prices/uniswap-v2.ts';
import { writeFixtureDist } from '../../support/fixture-dist.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';

// `npm run world -- swap` against the production server in local mode, as against a running
// `npm start`: the devnet lives inside the server, so the script reaches it through the server's node
// gateway with the demo key, signing as the world deployer (eth_sendRawTransaction).

const root = join(import.meta.dirname, '../../..');
const NETWORK = 'ethereum-sepolia';
let server: BuiltSite;

beforeAll(async () => {
  const fixture = await writeFixtureDist();
  server = await startBuiltSite({ distDir: fixture.distDir, env: { ANVIL_BLOCK_TIME: '1' } });
});
afterAll(() => server?.stop());

it('sells 1,000 FORGE into forge-cusd through the gateway and prints the pool’s price falling from 2.5', async () => {
  const args = ['scripts/world.ts', 'swap', '--network', NETWORK, '--pool', 'forge-cusd', '--sell', 'forge', '--amount', '1000'];
  // The script finds the gateway where the site is served: SITE_URL, as the server's own links.
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: root, env: { ...process.env, SITE_URL: server.origin } });
  expect(stdout).toMatch(/^Sold 1000 forge for 2467\.895085 cusd on forge-cusd \(0x[0-9a-fA-F]{40}\)\.$/m);
  const after = /^1 forge in cusd: 2\.5 before, (\d+\.\d+) after\.$/m.exec(stdout)?.[1];
  expect(Number(after)).toBeLessThan(2.5);

  const pool = WORLD_POOLS.find((candidate) => candidate.id === 'forge-cusd')!;
  const gateway = createPublicClient({ transport: http(`${server.origin}/node/${NETWORK}/v2/demo`) });
  const [reserve0, reserve1] = await gateway.readContract({ address: pool.address, abi: uniswapV2PairAbi, functionName: 'getReserves' });
  expect([reserve0, reserve1]).toEqual([pool.seed0 + 1000n * 10n ** 18n, pool.seed1 - 2_467_895_085n]);
});

it('exits 2 with the usage for a pool the world does not have', async () => {
  const args = ['scripts/world.ts', 'swap', '--network', NETWORK, '--pool', 'forge-usd', '--sell', 'forge', '--amount', '1'];
  const failure = await promisify(execFile)(process.execPath, args, { cwd: root, env: { ...process.env, SITE_URL: server.origin } }).catch(
    (error: { code: number; stderr: string }) => error,
  );
  expect(failure).toMatchObject({ code: 2, stderr: expect.stringMatching(/^no world pool "forge-usd"; the pools: weth-cusd, forge-cusd/) });
});
