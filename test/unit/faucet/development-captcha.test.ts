import { describe, expect, it } from 'vitest';
import { createDevelopmentVerifier, DEV_TURNSTILE_TOKEN } from '../../../src/faucet/captcha.ts';

describe('the development CAPTCHA', () => {
  it("accepts Cloudflare's dummy token, every time (it is one fixed string)", async () => {
    const verifier = createDevelopmentVerifier();
    expect(verifier.kind).toBe('development');
    expect(DEV_TURNSTILE_TOKEN).toBe('XXXX.DUMMY.TOKEN.XXXX');
    expect(await verifier.verify({ token: DEV_TURNSTILE_TOKEN, remoteIp: null })).toEqual({ ok: true });
    expect(await verifier.verify({ token: DEV_TURNSTILE_TOKEN, remoteIp: '127.0.0.1' })).toEqual({ ok: true });
  });

  it('refuses any other token and says what it accepts', async () => {
    const result = await createDevelopmentVerifier().verify({ token: 'xxxx.dummy.token.xxxx', remoteIp: null });
    expect(result.ok).toBe(false);
    expect('details' in result && result.details).toMatch(/^invalid-input-response .*XXXX\.DUMMY\.TOKEN\.XXXX/);
  });
});
