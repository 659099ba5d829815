import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAnvil, type TestAnvil } from '../../support/anvil.ts';
import { databaseEnv } from '../../support/crash.ts';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { freePort } from '../../support/free-port.ts';
import { createResponseValidator } from '../../support/openapi-validator.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';
import { Browser, newEmail, PASSWORD } from '../dashboard/dashboard-site.ts';

// The production server killed (SIGKILL) while dashboard writes are in flight (six accounts, each
// rotating the keys of its two apps again and again and creating three more), as the 30th of them
// is answered; started again on the same database (the accounts' sessions with it). Every app is
// then either there whole, its key shown again and working on the node gateway, or not at all;
// every acknowledged create is there with the key it was given; every acknowledged rotation took,
// and the one in flight either took (a new key that works, one version more) or not (the last key
// answered works): every key the app had before is refused, never an app without a working key.

const NETWORK = 'crucible-testnet';
const CHAIN_ID = 7357001;
const ACCOUNTS = 6;
const KILL_AFTER = 30;

let anvil: TestAnvil;
let fixture: FixtureDist;
beforeAll(async () => {
  [anvil, fixture] = await Promise.all([startTestAnvil({ chainId: CHAIN_ID }), writeFixtureDist()]);
});
afterAll(async () => {
  await anvil?.stop();
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
});

interface AppAnswer {
  app: { id: string; name: string; version: number };
  key: string;
}

describe.each(databaseEngines())('dashboard writes killed in flight on $name', (engine) => {
  it('leaves each app whole or absent, and each rotation taken or not', async () => {
    const location = await engine.location();
    const env = {
      ...databaseEnv(location),
      PORT: String(await freePort()),
      // Each browser's sign-up and calls count against an address of its own.
      TRUST_PROXY: 'cloudflare',
      NODE_UPSTREAMS_CRUCIBLE_TESTNET: anvil.rpcUrl,
      // Nothing in this server may start a devnet of its own: it would outlive the kill.
      PRICES_IN_SERVER: 'off',
      NFT_METADATA_IN_SERVER: 'off',
    };
    let server: BuiltSite | undefined = await startBuiltSite({ distDir: fixture.distDir, env });
    try {
      // The same port after the restart, so each browser keeps its origin and its cookies.
      const { origin } = server;
      const document = (await (await fetch(`${origin}/openapi.json`)).json()) as { servers: Array<{ url: string }> };
      const validator = createResponseValidator(document);
      const rpc = async (key: string) => {
        const response = await fetch(`${origin}/node/${NETWORK}/v2/${key}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
        });
        const body = (await response.json()) as { result?: string };
        return response.status === 200 && body.result !== undefined && Number(body.result) === CHAIN_ID ? 'works' : `refused (${response.status})`;
      };
      const create = (browser: Browser, name: string) =>
        browser.call('POST', '/api/dashboard/apps', { body: { name, allowedNetworks: [], allowedDomains: [] } });

      // Six accounts with two apps each.
      const accounts = [];
      for (let index = 0; index < ACCOUNTS; index++) {
        const browser = new Browser(origin, document.servers[0]!.url, validator, `10.7.${engine.name === 'sqlite' ? 1 : 2}.${index + 1}`);
        await browser.signUp(newEmail(), PASSWORD);
        const apps: AppAnswer[] = [];
        for (const name of [`old-${index}-a`, `old-${index}-b`]) {
          const created = await create(browser, name);
          expect(created.status).toBe(201);
          apps.push(created.body);
        }
        accounts.push({ browser, apps, newNames: [`new-${index}-a`, `new-${index}-b`, `new-${index}-c`] });
      }

      // Every account rotates each of its apps again and again, and creates three apps one after
      // another, until the server dies, as the 30th write is answered: a rotation of every app
      // is in flight then.
      /** By app: the keys it was answered, the one it had first. */
      const keys = new Map<string, string[]>();
      const created = new Map<string, AppAnswer>();
      const unexpected: unknown[] = [];
      let answered = 0;
      let killed: Promise<void> | undefined;
      const first = server;
      /** One write: its answer, or null when the server died before answering it. */
      const write = async (call: () => Promise<{ status: number; body: AppAnswer }>, status: number): Promise<AppAnswer | null> => {
        const answer = await call().catch(() => null);
        if (!answer) return null;
        if (answer.status !== status) unexpected.push(answer.body);
        if (++answered === KILL_AFTER) killed = first.kill();
        return answer.status === status ? answer.body : null;
      };
      const writers = accounts.flatMap(({ browser, apps, newNames }) => [
        ...apps.map(async ({ app, key }) => {
          const known = [key];
          keys.set(app.id, known);
          for (;;) {
            const rotated = await write(() => browser.call('POST', `/api/dashboard/apps/${app.id}/rotate`, { body: {} }), 200);
            if (!rotated) return;
            known.push(rotated.key);
          }
        }),
        (async () => {
          for (const name of newNames) {
            const answer = await write(() => create(browser, name), 201);
            if (!answer) return;
            created.set(name, answer);
          }
        })(),
      ]);
      await Promise.all(writers);
      expect(unexpected).toEqual([]);
      expect(killed, `the server was killed at the ${KILL_AFTER}th answer`).toBeDefined();
      await killed;

      server = await startBuiltSite({ distDir: fixture.distDir, env });
      for (const { browser, apps, newNames } of accounts) {
        const listed = (await browser.call('GET', '/api/dashboard/apps')).body.apps as AppAnswer['app'][];
        // Only the apps asked for, each once; the two it had are there, and every create answered.
        const names = listed.map((app) => app.name);
        expect(new Set(names).size).toBe(names.length);
        for (const name of names) expect([...apps.map(({ app }) => app.name), ...newNames]).toContain(name);
        for (const { app } of apps) expect(names).toContain(app.name);
        for (const name of newNames) if (created.has(name)) expect(listed.find((app) => app.name === name)?.id).toBe(created.get(name)!.app.id);

        for (const app of listed) {
          const key = (await browser.call('POST', `/api/dashboard/apps/${app.id}/key`)).body.key as string;
          // Whole: its key is shown again and works on the gateway.
          expect({ app: app.name, key: await rpc(key) }).toEqual({ app: app.name, key: 'works' });
          const known = keys.get(app.id);
          if (!known) {
            // A create: the key it answered, if it answered.
            expect(app.version).toBe(1);
            if (created.has(app.name)) expect(key).toBe(created.get(app.name)!.key);
            continue;
          }
          // Every answered rotation took; the one in flight took (a new key, one version more) or not.
          const answered = known.length - 1;
          const tookInFlight = key !== known.at(-1);
          expect({ app: app.name, version: app.version }).toEqual({ app: app.name, version: 1 + answered + (tookInFlight ? 1 : 0) });
          // Every key it had before is refused.
          for (const old of known.filter((candidate) => candidate !== key)) {
            expect({ app: app.name, oldKey: await rpc(old) }).toEqual({ app: app.name, oldKey: 'refused (401)' });
          }
        }
      }
    } finally {
      await server?.stop();
    }
  });
});
