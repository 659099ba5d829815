import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureDist, type FixtureDist } from '../support/fixture-dist.ts';
import { startBuiltSite, type BuiltSite } from '../support/site.ts';

// Local mode (CRUCIBLE_MODE=local, the default) serves anvil's published keys, a faucet without a real
// CAPTCHA and a fetcher allowed onto this machine's site: the production server refuses to offer it to
// the network (a HOST other than loopback) unless ALLOW_LOCAL_MODE_ON_NETWORK=yes says the operator means it.

let fixture: FixtureDist;

beforeAll(async () => {
  fixture = await writeFixtureDist();
});

afterAll(() => rm(fixture.root, { recursive: true, force: true }));

/** The server started, or the error that it exited before listening with. */
async function start(env: Record<string, string>): Promise<BuiltSite | Error> {
  return startBuiltSite({ distDir: fixture.distDir, env: { DATABASE_PATH: join(fixture.root, 'local-mode.sqlite'), ...env } }).catch((error: Error) => error);
}

describe('local mode on a network address', () => {
  it('does not start on HOST=0.0.0.0, naming HOST and ALLOW_LOCAL_MODE_ON_NETWORK', async () => {
    const started = await start({ HOST: '0.0.0.0' });
    if (!(started instanceof Error)) await started.stop();
    expect(started).toBeInstanceOf(Error);
    expect((started as Error).message).toMatch(/server exited with code 1 before listening/);
    expect((started as Error).message).toMatch(/HOST=0\.0\.0\.0/);
    expect((started as Error).message).toMatch(/ALLOW_LOCAL_MODE_ON_NETWORK=yes/);
  });

  // On loopback (HOST=127.0.0.1) every other suite starts it.
  it('starts on HOST=0.0.0.0 with ALLOW_LOCAL_MODE_ON_NETWORK=yes', async () => {
    const started = await start({ HOST: '0.0.0.0', ALLOW_LOCAL_MODE_ON_NETWORK: 'yes' });
    if (started instanceof Error) throw started;
    try {
      expect((await fetch(`${started.origin.replace('0.0.0.0', '127.0.0.1')}/index.md`)).status).toBe(200);
    } finally {
      await started.stop();
    }
  });
});
