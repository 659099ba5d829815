import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { glob } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../support/build.ts';

// No page hard-codes a host (docs/hosts-and-paths.md#site-origin): pages name `{node_url}` and `{prices_url}`, and code
// samples read the endpoint from an environment variable the reader fills from the RPC page.

const contentRoot = join(projectRoot, 'content');
const madeUpHosts = /\b(?:node|api)\.crucible\.dev\b/i;

/** `path:line: text` for every line of `source` that names a made-up host. */
function hostLines(path: string, source: string): string[] {
  return source.split('\n').flatMap((text, index) => (madeUpHosts.test(text) ? [`${path}:${index + 1}: ${text.trim()}`] : []));
}

describe('committed content', () => {
  it('names neither node.crucible.dev nor api.crucible.dev in any file', async () => {
    const files = await glob('**/*', { cwd: contentRoot, dot: true });
    expect(files.length).toBeGreaterThan(100); // the whole tree was read, not an empty folder
    const found: string[] = [];
    for (const file of files) found.push(...hostLines(`content/${file}`, await readFile(join(contentRoot, file), 'utf8')));
    expect(found).toEqual([]);
  });

  it('is checked line by line, so a host anywhere in a file is reported with its place', () => {
    const source = 'intro\ncurl -s "https://ethereum-sepolia.node.crucible.dev/v2/$KEY"\n{prices_url} not https://API.crucible.dev/prices\n';
    expect(hostLines('content/en/x.md', source)).toEqual([
      'content/en/x.md:2: curl -s "https://ethereum-sepolia.node.crucible.dev/v2/$KEY"',
      'content/en/x.md:3: {prices_url} not https://API.crucible.dev/prices',
    ]);
    expect(hostLines('content/en/x.md', '`{node_url}/v2/<API_KEY>` and https://crucible.dev/api/faucets')).toEqual([]);
  });
});
