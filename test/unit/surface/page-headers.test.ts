import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DistFiles } from '../../../integrations/surface/dist-files.ts';
import { joinPageHeaderRuns, pageHeaderRun, pageHeadersOf } from '../../../integrations/surface/page-headers.ts';
import { startTwinJob } from '../../../integrations/surface/twin-job.ts';
import { createSite } from '../../../src/site/site.ts';
import { fixtureSite, writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';

// The build reads the pages for their headers in runs, on whichever thread is free, and joins
// the runs: the manifest must come out as one pass over the sorted pages makes it.

let fixture: FixtureDist;
let pages: string[];

beforeAll(async () => {
  fixture = await writeFixtureDist();
  pages = DistFiles.list(fixture.distDir).htmlFiles();
});

afterAll(async () => {
  await rm(fixture.root, { recursive: true, force: true });
});

describe('page headers in runs', () => {
  it('joined in order, give what one pass over the pages gives: the same sets, numbered in order of first use', () => {
    const whole = pageHeadersOf(fixture.distDir, fixtureSite);
    expect(whole.sets.length).toBeGreaterThan(1);
    for (const size of [1, 2, 3, pages.length]) {
      const runs = [];
      for (let start = 0; start < pages.length; start += size) runs.push(pageHeaderRun(fixture.distDir, pages.slice(start, start + size), fixtureSite));
      const joined = joinPageHeaderRuns(pages, runs);
      expect(JSON.stringify(joined), `runs of ${size}`).toBe(JSON.stringify(whole));
    }
  });

  it('refuses runs that do not cover the pages', () => {
    expect(() => joinPageHeaderRuns(pages, [pageHeaderRun(fixture.distDir, pages.slice(1), fixtureSite)])).toThrow(/pages computed/);
  });

  it.each([
    ['a worker thread', 1],
    ['this thread alone', 0],
  ])('are computed by the twin job in %s as pageHeadersOf computes them', async (_name, workers) => {
    const job = startTwinJob({
      root: fixture.root,
      site: createSite({ pages: [], apps: [], networks: [] }),
      siteUrl: fixtureSite,
      rpcSections: {},
      stagingDir: `${fixture.root}/staging`,
      workers: 1,
    });
    const headers = job.pageHeaders(fixture.distDir, pages, new URL(fixtureSite).origin, workers);
    if (!workers) await job.helpWithPageHeaders();
    expect(JSON.stringify(await headers)).toBe(JSON.stringify(pageHeadersOf(fixture.distDir, fixtureSite)));
    await job.finish(fixture.distDir);
  });
});
