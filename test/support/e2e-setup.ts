import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { contentDir } from '../../src/config/config.ts';
import { surfaceManifestFile } from '../../src/http/surface-manifest.ts';
import { staleReason } from '../../src/server/build-freshness.ts';
import { projectRoot } from './build.ts';

/** e2e suites browse the real site: build dist/ first when it is missing or stale, as `npm start` does. */
export default async function buildSiteForE2e(): Promise<void> {
  const reason = await staleReason(projectRoot, join(projectRoot, 'dist', surfaceManifestFile), contentDir());
  if (!reason) return;
  console.log(`e2e: building the site (${reason})`);
  const build = spawnSync('npm', ['run', 'build'], { cwd: projectRoot, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`npm run build failed with status ${build.status}`);
}
