import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildEnvironment } from '../../../src/config/build-environment.ts';
import { DEV_TURNSTILE_TOKEN } from '../../../src/faucet/development-token.ts';
import { locales } from '../../../src/site/locales.ts';
import { nodeUrlOf, webSocketUrlOf } from '../../../src/site/urls.ts';
import { projectRoot } from '../../support/build.ts';

// What a newcomer reads first (the README's first screen, the faucet guide) names what `npm start`
// serves by default: its origin, the HTTP and WebSocket node URLs, the local faucet's token, the CLI.

const readme = await readFile(join(projectRoot, 'README.md'), 'utf8');
const packageJson = JSON.parse(await readFile(join(projectRoot, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
  devDependencies: Record<string, string>;
};
const origin = buildEnvironment({}).siteOrigin;
const demoEndpoint = `${nodeUrlOf('ethereum-sepolia', { siteOrigin: origin, nodeDomain: null })}/v2/demo`;
/** The README up to its first section heading. */
const firstScreen = readme.slice(0, readme.indexOf('\n## '));

describe('the README’s first screen', () => {
  it('says first what a system Node older than the pinned one means: warnings at install, scripts on the pinned Node', () => {
    const beforeCommands = firstScreen.slice(0, firstScreen.indexOf('```'));
    expect(beforeCommands).toContain('EBADENGINE');
    expect(beforeCommands).toContain(`Node ${packageJson.devDependencies.node!.split('.')[0]}`);
  });

  it('calls the default origin over HTTP and WebSocket, and drips with the local faucet’s token', () => {
    expect(firstScreen).toContain(`curl -s ${demoEndpoint} `);
    expect(firstScreen).toContain(`'${webSocketUrlOf(demoEndpoint)}'`);
    expect(firstScreen).toContain(`curl -s ${origin}/api/faucets/ethereum-sepolia/send `);
    expect(firstScreen).toContain(`"turnstileToken":"${DEV_TURNSTILE_TOKEN}"`);
  });

  it('creates an app with the package’s own command', () => {
    expect(packageJson.bin.crucible).toBe('scripts/crucible.ts');
    expect(firstScreen).toContain('npx crucible apps create --name my-app');
  });
});

describe('the faucet guide', () => {
  it('gives the local faucet’s token in every locale that has the guide', async () => {
    for (const locale of locales) {
      const guide = await readFile(join(projectRoot, 'content', locale, 'overviews/using-the-testnet-faucet.mdx'), 'utf8').catch(() => null);
      if (guide === null) continue;
      expect(guide, locale).toContain(`"turnstileToken":"${DEV_TURNSTILE_TOKEN}"`);
      expect(guide, locale).toContain(`${origin}/api/faucets/`);
    }
  });
});
