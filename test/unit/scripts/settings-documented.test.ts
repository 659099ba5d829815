import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { glob } from 'tinyglobby';
import { describe, expect, it } from 'vitest';

// Every setting .env.example lists is described in docs/ (docs/README.md), the contract a clone
// carries: a setting added to the code and .env.example but not to docs/ fails here. A per-network
// example (`RPC_URL_BASE_SEPOLIA=`) counts as documented when docs/ names its pattern (`RPC_URL_<ID>`).

const ROOT = join(import.meta.dirname, '../../..');

/** The names .env.example sets, set or commented out (`# NAME=value`). */
function settingsOf(envExample: string): string[] {
  return [...new Set([...envExample.matchAll(/^#? ?([A-Z][A-Z0-9_]{2,})=/gm)].map((match) => match[1]!))];
}

/** Whether `docs` names `setting`, or the `<PREFIX>_<ID>` pattern a per-network example of it stands for. */
function documented(setting: string, docs: string): boolean {
  if (new RegExp(`\\b${setting}\\b`).test(docs)) return true;
  const parts = setting.split('_');
  for (let cut = 1; cut < parts.length; cut += 1) {
    if (docs.includes(`${parts.slice(0, cut).join('_')}_<ID>`)) return true;
  }
  return false;
}

describe('settings in docs/', () => {
  it('reads settings set and commented, and takes a per-network example for its <ID> pattern', () => {
    expect(settingsOf('# text\nPORT=4321\n# RPC_URL_BASE_SEPOLIA=https://...\n#   none  the peer\n')).toEqual(['PORT', 'RPC_URL_BASE_SEPOLIA']);
    expect(documented('RPC_URL_BASE_SEPOLIA', 'set `RPC_URL_<ID>`')).toBe(true);
    expect(documented('RPC_URL_BASE_SEPOLIA', 'set `RPC_URL`')).toBe(false);
    expect(documented('PORT', '`PORTS`')).toBe(false);
  });

  it('describes every setting of .env.example', async () => {
    const settings = settingsOf(await readFile(join(ROOT, '.env.example'), 'utf8'));
    expect(settings.length).toBeGreaterThan(50); // the whole file was read
    const pages = await glob('docs/*.md', { cwd: ROOT });
    const docs = (await Promise.all(pages.map((page) => readFile(join(ROOT, page), 'utf8')))).join('\n');
    expect(settings.filter((setting) => !documented(setting, docs))).toEqual([]);
  });
});
