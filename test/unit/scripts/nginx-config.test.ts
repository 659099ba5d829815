import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nginxConfigFile, nginxConfigFor } from '../../support/nginx.ts';

// deploy/nginx.conf is the one nginx configuration: the topology suite runs nginx with it, and the
// operator's guide (docs/ and the site's page) shows it as it is, so the three cannot drift.

const ROOT = join(import.meta.dirname, '../../..');

describe('deploy/nginx.conf', () => {
  it('is shown verbatim by docs/operating-at-scale.md and the site’s guide', async () => {
    const config = await readFile(nginxConfigFile, 'utf8');
    for (const page of ['docs/operating-at-scale.md', 'content/en/overviews/operating-at-scale.md']) {
      expect(await readFile(join(ROOT, page), 'utf8'), page).toContain(`\`\`\`nginx\n${config}\`\`\``);
    }
  });

  it('differs in the test only by its upstream servers and its listen line', async () => {
    const config = await readFile(nginxConfigFile, 'utf8');
    const tested = nginxConfigFor(config, ['127.0.0.1:5001', '127.0.0.1:5002'], 8080);
    const removed = config.split('\n').filter((line) => !tested.split('\n').includes(line));
    expect(removed).toEqual([
      '    server 10.0.0.11:4321 max_fails=1 fail_timeout=5s; # upstream servers',
      '    server 10.0.0.12:4321 max_fails=1 fail_timeout=5s; # upstream servers',
      '    listen 80; # listen',
    ]);
    expect(tested).toContain('    server 127.0.0.1:5001 max_fails=1 fail_timeout=5s;\n    server 127.0.0.1:5002 max_fails=1 fail_timeout=5s;\n');
    expect(tested).toContain('    listen 127.0.0.1:8080;\n');
  });
});
