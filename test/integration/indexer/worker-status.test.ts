import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestAnvil, type TestAnvil } from '../../support/anvil.ts';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';
import { startIndexerWorker, type WorkerProcess } from './worker-process.ts';

// A deployment whose indexer runs as its own worker (`npm run worker -- indexer`) beside a server
// that does not index (INDEXER_IN_SERVER=off): the server still answers GET /api/indexer/status,
// from the database the worker writes (docs/website.md#indexer-status).

const NETWORK = 'crucible-testnet';
const CHAIN_ID = 7357001;

let dir: string;
let fixture: FixtureDist;
let anvil: TestAnvil;
let worker: WorkerProcess;
let server: BuiltSite;

interface Status {
  networks: Array<{ network: string; state: string; headBlock: number | null; indexedBlock: number | null; lag: number | null }>;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crucible-worker-status-'));
  fixture = await writeFixtureDist();
  anvil = await startTestAnvil({ chainId: CHAIN_ID });
  for (let i = 0; i < 3; i++) await anvil.client.request({ method: 'evm_mine' as never });
  const databasePath = join(dir, 'crucible.sqlite');
  const settings = { INDEXER_NETWORKS: NETWORK, NODE_UPSTREAMS_CRUCIBLE_TESTNET: anvil.rpcUrl, INDEXER_POLL_INTERVAL_MS: '50' };
  server = await startBuiltSite({ distDir: fixture.distDir, env: { ...settings, DATABASE_PATH: databasePath, INDEXER_IN_SERVER: 'off' } });
  worker = startIndexerWorker({ engine: 'sqlite', path: databasePath }, settings);
}, 120_000);

afterAll(async () => {
  if (worker && worker.child.exitCode === null && worker.child.signalCode === null) {
    worker.child.kill('SIGTERM');
    await worker.exited;
  }
  await server?.stop();
  await anvil?.stop();
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('GET /api/indexer/status with INDEXER_IN_SERVER=off', () => {
  it("answers the worker's progress from the shared database, and says stopped once the worker stops", async () => {
    const head = Number(await anvil.client.getBlockNumber({ cacheTime: 0 }));
    const status = async (): Promise<{ status: number; body: Status | null }> => {
      const answer = await fetch(`${server.origin}/api/indexer/status`);
      return { status: answer.status, body: answer.status === 200 ? ((await answer.json()) as Status) : null };
    };
    // The worker catches up with the chain (it mines nothing more).
    await vi.waitFor(
      async () => {
        const { status: code, body } = await status();
        expect(code, worker.output()).toBe(200);
        expect(body).toEqual({ networks: [expect.objectContaining({ network: NETWORK, state: 'following', headBlock: head, indexedBlock: head, lag: 0 })] });
      },
      { timeout: 60_000, interval: 200 },
    );
    // Stopped cleanly, the worker gives its lease up: no process leads the network now.
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    await vi.waitFor(
      async () => {
        expect((await status()).body?.networks).toEqual([expect.objectContaining({ network: NETWORK, state: 'stopped', indexedBlock: head })]);
      },
      { timeout: 30_000, interval: 200 },
    );
  });
});
