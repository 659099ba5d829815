import { rm } from 'node:fs/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomAddress } from '../../support/anvil.ts';
import { fixtureSite, writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';

// `POST /mcp` at its edges (docs/mcp.md#streamable-http), on the production server in production
// mode over a small built site: what is refused before a message is read, the demo key's least
// charge, and the faucet tool, which in production needs a person to solve the CAPTCHA.

let fixture: FixtureDist;
let site: BuiltSite;

const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${site.origin}/mcp`, {
    method: 'POST',
    headers: { authorization: 'Bearer demo', 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
  });

const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

beforeAll(async () => {
  fixture = await writeFixtureDist();
  site = await startBuiltSite({
    distDir: fixture.distDir,
    env: {
      CRUCIBLE_MODE: 'production',
      TURNSTILE_SECRET_KEY: 'a-secret',
      TURNSTILE_SITE_KEY: 'a-site-key',
      TURNSTILE_EXPECTED_HOSTNAME: 'faucet.example.com',
      TURNSTILE_ACTION: 'faucet-send',
      IP_HASH_SALT: 'salt-salt-salt-salt',
      ANTI_SYBIL_MIN_BALANCE_ETH: '0',
      ANTI_SYBIL_MIN_TX_COUNT: '0',
      // Five messages' least charge a second, ten at once: the eleventh of a burst is refused unread.
      DEMO_KEY_COMPUTE_UNITS_PER_SECOND: '50',
      DEMO_KEY_COMPUTE_UNIT_BURST: '100',
      MCP_MAX_BODY_BYTES: '2000',
    },
  });
});

afterAll(async () => {
  await site?.stop();
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
});

// First: the demo key's bucket is full (the last test of POST /mcp empties it).
describe('the faucet tool in production mode', () => {
  it('says the faucet needs a person to solve its CAPTCHA, and where', async () => {
    const client = new Client({ name: 'crucible-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', site.origin), { requestInit: { headers: { authorization: 'Bearer demo' } } }));
    const answer = await client.callTool({ name: 'sendFaucetDrip', arguments: { faucetId: 'base-sepolia', address: randomAddress() } });
    expect(answer.isError).toBe(true);
    const { error } = JSON.parse((answer.content as Array<{ text: string }>)[0]!.text) as { error: { code: string; message: string; hint: string } };
    expect(error.code).toBe('missing_turnstile');
    expect(error.message).toMatch(/CAPTCHA/);
    // Links name the site origin the build was made for (the fixture's).
    expect(error.hint).toContain(`${fixtureSite}/faucets/base-sepolia`);
    await client.close();
  });
});

describe('POST /mcp', () => {
  it('answers the preflight with CORS headers that allow the key’s header, and GET and DELETE with 405', async () => {
    const preflight = await fetch(`${site.origin}/mcp`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${site.origin}/mcp`, { method, headers: { authorization: 'Bearer demo' } });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('POST, OPTIONS');
      expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32600);
    }
  });

  it('refuses a missing key with 401 and WWW-Authenticate, as an invalid key', async () => {
    const response = await post(ping, { authorization: '' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="Crucible"');
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid API key' } });
  });

  it('refuses a body over MCP_MAX_BODY_BYTES unread, and one that is not JSON', async () => {
    const large = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(3000) } }));
    expect(large.status).toBe(413);
    const broken = await post('{"jsonrpc":');
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });

  it('takes each message’s least charge from the demo key’s bucket before reading it: past its burst, 429 with Retry-After', async () => {
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 30 && !refused; i++) {
      const response = await post(ping);
      statuses.push(response.status);
      if (response.status === 429) refused = response;
      else await response.text();
    }
    expect(statuses[0]).toBe(200);
    expect(refused).toBeDefined();
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const body = (await refused!.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(429);
    expect(body.error.message).toMatch(/demo key/);
  });
});
