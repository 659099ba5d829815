import { spawn } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../support/build.ts';
import { writeFixtureDist, type FixtureDist } from '../support/fixture-dist.ts';
import { freePort } from '../support/free-port.ts';

// The server entry reads `.env` from its working directory; a variable set in the real
// environment wins over the file.

let fixture: FixtureDist;
let filePort: number;

beforeAll(async () => {
  fixture = await writeFixtureDist();
  filePort = await freePort();
  const dotEnv = [`PORT=${filePort}`, 'HOST=127.0.0.1', 'SITE_DIR=dist', 'REQUEST_LOG=off', 'DATABASE_PATH=.data/faucet.sqlite', 'INDEXER_IN_SERVER=off'];
  await writeFile(join(fixture.root, '.env'), `# written by env-file.test.ts\n${dotEnv.join('\n')}\n`);
});

afterAll(() => rm(fixture.root, { recursive: true, force: true }));

describe('.env', () => {
  it('configures the server started in its folder', async () => {
    const server = await startServerIn(fixture.root, {});
    expect(server.url).toBe(`http://127.0.0.1:${filePort}/`);
    expect((await fetch(`${server.url}index.md`)).status).toBe(200);
    const stdout = await server.stop();
    expect(stdout).not.toContain('"msg":"request"');
  });

  it('gives way to variables set in the real environment', async () => {
    const realPort = await freePort();
    const server = await startServerIn(fixture.root, { PORT: String(realPort), REQUEST_LOG: 'on' });
    expect(server.url).toBe(`http://127.0.0.1:${realPort}/`);
    expect((await fetch(`${server.url}index.md`)).status).toBe(200);
    expect(await server.stop()).toContain('"msg":"request"');
  });
});

/** `node src/server/main.ts` in `cwd`, with the server's own variables only from `env` (and `.env`). */
async function startServerIn(cwd: string, env: Record<string, string>) {
  const inherited = { ...process.env };
  for (const name of ['PORT', 'HOST', 'SITE_DIR', 'REQUEST_LOG', 'DATABASE_PATH']) delete inherited[name];
  const child = spawn(process.execPath, [join(projectRoot, 'src/server/main.ts')], { cwd, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const listening = stdout.split('\n').find((line) => line.includes('"msg":"listening"'));
      if (listening) resolve((JSON.parse(listening) as { url: string }).url);
    };
    child.stdout.on('data', onData);
    void exited.then(() => reject(new Error(`server exited before listening:\n${stderr}`)));
  });
  return {
    url,
    /** Stops the server and returns everything it wrote to stdout. */
    async stop() {
      child.kill('SIGTERM');
      await exited;
      return stdout;
    },
  };
}
