import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { environmentChange } from '../../../src/server/build-freshness.ts';

// `npm start` rebuilds a dist/ made with other environment-derived inputs than the ones it has now.

let dir: string;
const marker = () => join(dir, '_surface.json');
const writeManifest = (fields: object) => writeFile(marker(), JSON.stringify({ version: 1, site: 'http://localhost:4321', ...fields }));

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crucible-environment-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('environmentChange', () => {
  it('keeps a build made with the same inputs', async () => {
    await writeManifest({ environment: { siteOrigin: 'http://localhost:4321', turnstileSiteKey: null } });
    expect(await environmentChange(marker(), { siteOrigin: 'http://localhost:4321', turnstileSiteKey: null })).toBeNull();
  });

  it('names the first input that differs, with both values', async () => {
    await writeManifest({ environment: { siteOrigin: 'http://localhost:4321', turnstileSiteKey: null } });
    expect(await environmentChange(marker(), { siteOrigin: 'http://localhost:4321', turnstileSiteKey: '0x4AAA' })).toBe(
      'turnstileSiteKey was null at the last build, now 0x4AAA',
    );
  });

  it('rebuilds when an input was added since the build, or the build recorded none', async () => {
    await writeManifest({ environment: { siteOrigin: 'http://localhost:4321' } });
    expect(await environmentChange(marker(), { siteOrigin: 'http://localhost:4321', turnstileSiteKey: '0x4AAA' })).toBe(
      'turnstileSiteKey was null at the last build, now 0x4AAA',
    );
    await writeManifest({});
    expect(await environmentChange(marker(), { siteOrigin: 'http://localhost:4321' })).toBe('the last build recorded no environment');
  });
});
