import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { outboundRequest } from '../net/outbound-request.ts';
import type { CaptchaTokenStore } from '../store/types.ts';
import { DEV_TURNSTILE_TOKEN } from './development-token.ts';

// Step 4 of the send: the CAPTCHA. A rejected token's `details` carries Cloudflare's `error-codes`
// (docs/errors.md#faucet-error-body), or one of our own codes in the same style for checks made
// here. When siteverify gives no answer the token was not judged at all: `unavailable`, which the
// faucet answers as a 503, not as the caller's failure.

type CaptchaResult = { ok: true } | { ok: false; details: string } | { ok: false; unavailable: true };

export interface CaptchaVerifier {
  readonly kind: 'turnstile' | 'development';
  verify(input: { token: string; remoteIp: string | null }): Promise<CaptchaResult>;
}

/** The token Cloudflare's testing site keys hand the browser; the only one local mode accepts. */
export { DEV_TURNSTILE_TOKEN };
/** Cloudflare: a Turnstile token is at most 2048 characters. */
const MAX_TURNSTILE_TOKEN_LENGTH = 2048;
/** Cloudflare: a token can be redeemed for 300 seconds after it is issued. */
const TOKEN_LIFETIME_MS = 300_000;
/** Bytes of a siteverify answer read: Cloudflare's are a few hundred; a larger one is no answer. */
const MAX_ANSWER_BYTES = 64 * 1024;
/** Redirects followed, as many as fetch follows. */
const MAX_REDIRECTS = 20;

/**
 * Local mode's clearly labelled development check. The dummy token is one fixed string, so it
 * cannot be single-use; the development verifier is refused in production (src/config/faucet.ts).
 */
export function createDevelopmentVerifier(): CaptchaVerifier {
  return {
    kind: 'development',
    async verify({ token }) {
      return token === DEV_TURNSTILE_TOKEN
        ? { ok: true }
        : { ok: false, details: `invalid-input-response (the development check accepts only ${DEV_TURNSTILE_TOKEN})` };
    },
  };
}

export interface TurnstileOptions {
  secretKey: string;
  siteverifyUrl: string;
  /** Refuse tokens solved on another hostname; null: not checked. */
  expectedHostname: string | null;
  /** Refuse tokens of another widget action; null: not checked. */
  expectedAction: string | null;
  /** Where used token hashes are kept (shared by processes when it is Redis). */
  tokens: CaptchaTokenStore;
  clock?: () => Date;
  timeoutMs?: number;
}

const siteverifyAnswer = z.object({
  success: z.boolean(),
  'error-codes': z.array(z.string()).default([]),
  hostname: z.string().optional(),
  action: z.string().optional(),
});

/** Cloudflare Turnstile `siteverify`: POST secret, response, remoteip and idempotency_key as a form. */
export function createTurnstileVerifier(options: TurnstileOptions): CaptchaVerifier {
  const clock = options.clock ?? (() => new Date());
  const timeoutMs = options.timeoutMs ?? 5_000;
  const siteverifyUrl = new URL(options.siteverifyUrl);

  /** One siteverify round trip (src/net/README.md); null when it did not produce an answer worth trusting. */
  const ask = async (form: URLSearchParams) => {
    try {
      const answer = await outboundRequest(siteverifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
        body: form.toString(),
        timeoutMs,
        maxBytes: MAX_ANSWER_BYTES,
        maxRedirects: MAX_REDIRECTS,
        takes: (status) => status >= 200 && status <= 299,
      });
      const parsed = siteverifyAnswer.safeParse(JSON.parse(Buffer.from(answer.body).toString('utf8')));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  };

  return {
    kind: 'turnstile',
    async verify({ token, remoteIp }) {
      if (token.length > MAX_TURNSTILE_TOKEN_LENGTH) return { ok: false, details: 'invalid-input-response' };
      // Single use is enforced here as well as at Cloudflare. A replay is refused by a read, without
      // a siteverify call; the claim (a write) is made only for a token Cloudflare accepted, so
      // garbage tokens cost no write at all. Two concurrent requests with one good token both ask
      // Cloudflare, which accepts one; the claim below also lets only one through.
      const now = clock();
      const tokenHash = createHash('sha256').update(token).digest('hex');
      if (await options.tokens.isCaptchaTokenUsed(tokenHash, now)) return { ok: false, details: 'timeout-or-duplicate' };

      const form = new URLSearchParams({ secret: options.secretKey, response: token, idempotency_key: randomUUID() });
      if (remoteIp) form.set('remoteip', remoteIp);
      // One retry, with the same idempotency_key: Cloudflare answers a repeated key as it did the first time.
      const answer = (await ask(form)) ?? (await ask(form));
      // Cloudflare's own internal-error: "the request can be retried"; the token was not judged either.
      if (!answer || (!answer.success && answer['error-codes'].includes('internal-error'))) return { ok: false, unavailable: true };
      if (!answer.success) return { ok: false, details: answer['error-codes'].join(',') || 'unknown-error' };
      if (options.expectedHostname !== null && answer.hostname !== options.expectedHostname) return { ok: false, details: 'hostname-mismatch' };
      if (options.expectedAction !== null && answer.action !== options.expectedAction) return { ok: false, details: 'action-mismatch' };
      if (!(await options.tokens.claimCaptchaToken(tokenHash, new Date(now.getTime() + TOKEN_LIFETIME_MS), clock()))) {
        return { ok: false, details: 'timeout-or-duplicate' };
      }
      return { ok: true };
    },
  };
}
