import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTurnstileVerifier, type TurnstileOptions } from '../../../src/faucet/captcha.ts';
import { openSqliteStore } from '../../../src/store/sqlite.ts';
import type { FaucetStore } from '../../../src/store/types.ts';
import { startSiteverify, type TestSiteverify } from '../../support/siteverify.ts';

const SECRET = 'test-secret-key';

let dir: string;
let siteverify: TestSiteverify;
let store: FaucetStore;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crucible-captcha-'));
  siteverify = await startSiteverify({ secret: SECRET });
});
afterAll(async () => {
  await siteverify?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  store = openSqliteStore(join(dir, `${crypto.randomUUID()}.sqlite`));
  siteverify.requests.length = 0;
});
afterEach(() => store.close());

const verifier = (overrides: Partial<TurnstileOptions> = {}) =>
  createTurnstileVerifier({ secretKey: SECRET, siteverifyUrl: siteverify.url, expectedHostname: null, expectedAction: null, tokens: store, ...overrides });

describe('Turnstile siteverify client', () => {
  it('posts secret, response, remoteip and an idempotency key as a form, and accepts a solved token', async () => {
    const token = siteverify.issueToken();
    expect(await verifier().verify({ token, remoteIp: '203.0.113.9' })).toEqual({ ok: true });
    expect(siteverify.requests).toHaveLength(1);
    const [request] = siteverify.requests;
    expect(request!.contentType).toContain('application/x-www-form-urlencoded');
    expect(request!.fields).toMatchObject({ secret: SECRET, response: token, remoteip: '203.0.113.9' });
    expect(request!.fields.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("passes Cloudflare's error codes back as details", async () => {
    expect(await verifier().verify({ token: 'never-issued', remoteIp: null })).toEqual({ ok: false, details: 'invalid-input-response' });
    expect(siteverify.requests[0]!.fields).not.toHaveProperty('remoteip');
    const wrongSecret = await verifier({ secretKey: 'another-secret' }).verify({ token: siteverify.issueToken(), remoteIp: null });
    expect(wrongSecret).toEqual({ ok: false, details: 'invalid-input-secret' });
  });

  it('uses a token once, refusing the replay without asking Cloudflare again', async () => {
    const token = siteverify.issueToken();
    expect((await verifier().verify({ token, remoteIp: null })).ok).toBe(true);
    expect(await verifier().verify({ token, remoteIp: null })).toEqual({ ok: false, details: 'timeout-or-duplicate' });
    expect(siteverify.requests).toHaveLength(1);
  });

  it('lets one of two concurrent requests with one token through', async () => {
    const token = siteverify.issueToken();
    const results = await Promise.all([verifier().verify({ token, remoteIp: null }), verifier().verify({ token, remoteIp: null })]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
  });

  it("refuses a token once it has been spent at Cloudflare (another server's replay)", async () => {
    const token = siteverify.issueToken();
    const other = openSqliteStore(join(dir, 'other-server.sqlite'));
    expect((await verifier({ tokens: other }).verify({ token, remoteIp: null })).ok).toBe(true);
    expect(await verifier().verify({ token, remoteIp: null })).toEqual({ ok: false, details: 'timeout-or-duplicate' });
    await other.close();
  });

  it('commits nothing to the store for 1,000 garbage tokens (the claim follows a successful siteverify)', async () => {
    const path = join(dir, 'garbage.sqlite');
    const tokens = openSqliteStore(path);
    // Another connection sees data_version move on every commit made by the store's own.
    const observer = new DatabaseSync(path);
    const dataVersion = () => (observer.prepare('PRAGMA data_version').get() as { data_version: number }).data_version;
    try {
      const before = dataVersion();
      for (let i = 0; i < 1_000; i++) {
        expect(await verifier({ tokens }).verify({ token: `garbage-${i}`, remoteIp: null })).toEqual({ ok: false, details: 'invalid-input-response' });
      }
      expect(dataVersion()).toBe(before);
      expect(observer.prepare('SELECT count(*) AS n FROM captcha_tokens').get()).toEqual({ n: 0 });
      // A solved token is claimed, once.
      const token = siteverify.issueToken();
      expect(await verifier({ tokens }).verify({ token, remoteIp: null })).toEqual({ ok: true });
      expect(dataVersion()).not.toBe(before);
      expect(observer.prepare('SELECT count(*) AS n FROM captcha_tokens').get()).toEqual({ n: 1 });
    } finally {
      observer.close();
      await tokens.close();
    }
  });

  it('refuses tokens longer than 2048 characters without a call', async () => {
    expect(await verifier().verify({ token: 'x'.repeat(2049), remoteIp: null })).toEqual({ ok: false, details: 'invalid-input-response' });
    expect(siteverify.requests).toHaveLength(0);
  });

  it('checks the hostname and the action when they are configured', async () => {
    const strict = verifier({ expectedHostname: 'faucet.example.com', expectedAction: 'faucet' });
    expect(await strict.verify({ token: siteverify.issueToken({ hostname: 'faucet.example.com', action: 'faucet' }), remoteIp: null })).toEqual({ ok: true });
    expect(await strict.verify({ token: siteverify.issueToken({ hostname: 'evil.example.com', action: 'faucet' }), remoteIp: null })).toEqual({
      ok: false,
      details: 'hostname-mismatch',
    });
    expect(await strict.verify({ token: siteverify.issueToken({ hostname: 'faucet.example.com', action: 'login' }), remoteIp: null })).toEqual({
      ok: false,
      details: 'action-mismatch',
    });
  });

  it('retries an edge failure once with the same idempotency key', async () => {
    siteverify.failNext(1);
    expect(await verifier().verify({ token: siteverify.issueToken(), remoteIp: null })).toEqual({ ok: true });
    expect(siteverify.requests).toHaveLength(2);
    expect(siteverify.requests[1]!.fields.idempotency_key).toBe(siteverify.requests[0]!.fields.idempotency_key);
  });

  it('says verification is unavailable, not that the token failed, when siteverify gives no answer', async () => {
    siteverify.failNext(2);
    expect(await verifier().verify({ token: siteverify.issueToken(), remoteIp: null })).toEqual({ ok: false, unavailable: true });
    const unreachable = verifier({ siteverifyUrl: 'http://127.0.0.1:9/siteverify' });
    expect(await unreachable.verify({ token: siteverify.issueToken(), remoteIp: null })).toEqual({ ok: false, unavailable: true });
  });

  it("takes Cloudflare's own internal-error answer as unavailable too: the token was not judged", async () => {
    siteverify.failNext(2, 'internal-error');
    expect(await verifier().verify({ token: siteverify.issueToken(), remoteIp: null })).toEqual({ ok: false, unavailable: true });
  });
});
