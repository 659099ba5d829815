import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { EXAMPLE_NETWORK } from '../../src/site/example-network.ts';
import { buildSite, copyFixtureContent, projectRoot } from './build.ts';
import { reservePort } from './free-port.ts';

// The production server in local mode as `npm start` runs it for the NFT products: the fixture site
// built for the origin it is then served at (the world's token URIs and the media URLs name the
// build's origin, and the devnet's metadata is fetched from the site itself, public/world/ included),
// its own database and devnet, the indexer on for the docs' example network from the start, request
// lines on and kept, so a test can read what the server logged.

export interface WorldSite {
  origin: string;
  network: string;
  /** The server's SQLite file (read it beside the server: WAL lets a reader in). */
  databasePath: string;
  /** The child's stdout so far, one JSON log line each. */
  logLines(): string[];
  stop(): Promise<void>;
}

/** Starts of the server on a port another process took meanwhile, before giving up. */
const PORT_ATTEMPTS = 3;

export async function startWorldSite(options: { prepare?: (databasePath: string) => Promise<void>; env?: Record<string, string> } = {}): Promise<WorldSite> {
  // The build names the origin, so its port is chosen first and held through the build; a server that
  // still finds it taken (in the moment between the release and its listen) starts again on another.
  for (let attempt = 1; ; attempt++) {
    const started = await startOnReservedPort(options);
    if (started !== 'port taken') return started;
    if (attempt === PORT_ATTEMPTS) throw new Error(`the world site's port was taken ${PORT_ATTEMPTS} times`);
  }
}

async function startOnReservedPort(options: {
  prepare?: (databasePath: string) => Promise<void>;
  env?: Record<string, string>;
}): Promise<WorldSite | 'port taken'> {
  const reserved = await reservePort();
  const { port } = reserved;
  const origin = `http://127.0.0.1:${port}`;
  const fixture = await copyFixtureContent();
  let build: Awaited<ReturnType<typeof buildSite>>;
  try {
    build = await buildSite({ contentDir: fixture.content, outDir: join(fixture.dir, 'dist'), cacheDir: join(fixture.dir, 'cache'), siteUrl: origin });
  } finally {
    await reserved.release();
  }
  if (build.code !== 0) throw new Error(`fixture build failed:\n${build.output}`);
  const databasePath = join(fixture.dir, 'crucible.sqlite');
  await options.prepare?.(databasePath);
  const network = EXAMPLE_NETWORK;
  const child = spawn(process.execPath, ['src/server/main.ts'], {
    cwd: projectRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SITE_DIR: build.outDir,
      DATABASE_PATH: databasePath,
      REQUEST_LOG: 'on',
      ANVIL_BLOCK_TIME: '1',
      INDEXER_IN_SERVER: 'on',
      INDEXER_NETWORKS: network,
      INDEXER_POLL_INTERVAL_MS: '200',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let partial = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const listening = await new Promise<boolean>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const split = (partial + chunk).split('\n');
      partial = split.pop() ?? ''; // an unfinished line waits for the next chunk
      lines.push(...split);
      if (split.some((line) => line.includes('"msg":"listening"'))) resolve(true);
    });
    void exited.then((code) => {
      if (/EADDRINUSE/.test(stderr + lines.join('\n'))) resolve(false);
      else reject(new Error(`server exited with code ${code} before listening:\n${stderr}`));
    });
  });
  if (!listening) {
    await rm(fixture.dir, { recursive: true, force: true });
    return 'port taken';
  }
  return {
    origin,
    network,
    databasePath,
    logLines: () => [...lines],
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await rm(fixture.dir, { recursive: true, force: true });
    },
  };
}
