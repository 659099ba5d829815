import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles } from '../../../integrations/surface/dist-files.ts';
import { startTwinJob, type TwinJob } from '../../../integrations/surface/twin-job.ts';
import { rpcTwinSections } from '../../../integrations/surface/twin-rpc-sections.ts';
import { loadSite } from '../../../src/site/read-content.ts';
import { createSite, type Site } from '../../../src/site/site.ts';
import { projectRoot } from '../../support/build.ts';

// The twins of the fixture site rendered in worker threads, as the build renders them: into a
// staging folder until Astro has emptied dist/, straight into dist/ after, whenever that is.

let dir: string;
let site: Site;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crucible-twin-job-'));
  const loaded = await loadSite(projectRoot, 'test/fixtures/site/content');
  site = createSite({ pages: loaded.pages.map((page) => ({ ...page, body: '' })), apps: loaded.apps, networks: loaded.networks });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const start = (name: string): TwinJob =>
  startTwinJob({
    root: projectRoot,
    site,
    siteUrl: 'https://fixture.example',
    rpcSections: rpcTwinSections(site, 'https://fixture.example', null),
    stagingDir: join(dir, `${name}-staging`),
    workers: 1,
  });

// Each job starts a thread that loads the twin renderer: seconds on a busy machine (the unit project's timeout allows for it).
describe('the twin job', () => {
  it('writes the same files whether they wait in the staging folder or go straight into dist/, and leaves no staging folder', async () => {
    const staged = await start('staged').finish(join(dir, 'staged'));
    expect(staged.twins).toBe(site.pages.length);
    expect(staged.files.toSorted()).toEqual(listFiles(join(dir, 'staged')).sort());

    for (const [name, after] of [
      ['direct', 0],
      ['midway', 300],
    ] as const) {
      const job = start(name);
      await new Promise((resolve) => setTimeout(resolve, after));
      job.writeInto(join(dir, name));
      const result = await job.finish(join(dir, name));
      expect(result.files.toSorted(), name).toEqual(staged.files.toSorted());
      for (const file of staged.files)
        expect(readFileSync(join(dir, name, file), 'utf8'), `${name}: ${file}`).toBe(readFileSync(join(dir, 'staged', file), 'utf8'));
      expect(existsSync(join(dir, `${name}-staging`)), name).toBe(false);
    }
  });

  it('refuses to finish into another folder than the one it wrote into', async () => {
    const job = start('elsewhere');
    job.writeInto(join(dir, 'one'));
    await expect(job.finish(join(dir, 'other'))).rejects.toThrow(/twins were written into .*one, but Astro built into .*other/);
    await job.finish(join(dir, 'one')); // let its threads finish before the folder goes
  });
});
