import { randomUUID } from 'node:crypto';
import { text } from 'node:stream/consumers';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local server speaking Cloudflare Turnstile's documented siteverify protocol (Cloudflare is
// unreachable from tests): POST form or JSON with secret, response, remoteip, idempotency_key;
// answers { success, challenge_ts, hostname, error-codes, action, cdata }. Tokens are issued
// by the test, redeemable once; a repeated idempotency_key gets the first answer again.

export interface IssuedToken {
  hostname: string;
  action: string;
  cdata: string;
}

interface SiteverifyRequest {
  contentType: string;
  fields: Record<string, string>;
}

export async function startSiteverify(options: { secret: string }) {
  const issued = new Map<string, IssuedToken>();
  const redeemed = new Set<string>();
  const byIdempotencyKey = new Map<string, { response: string; answer: object }>();
  const requests: SiteverifyRequest[] = [];
  let failuresToServe = 0;
  let failureKind: 'edge' | 'internal-error' = 'edge';

  const verify = (fields: Record<string, string>) => {
    const { secret, response, idempotency_key: idempotencyKey } = fields;
    const fail = (code: string) => ({ success: false, 'error-codes': [code] });
    if (!secret) return fail('missing-input-secret');
    if (secret !== options.secret) return fail('invalid-input-secret');
    if (!response) return fail('missing-input-response');
    if (idempotencyKey) {
      const earlier = byIdempotencyKey.get(idempotencyKey);
      if (earlier) return earlier.response === response ? earlier.answer : fail('invalid-idempotency-key');
    }
    const token = issued.get(response);
    let answer: object;
    if (!token) answer = fail('invalid-input-response');
    else if (redeemed.has(response)) answer = fail('timeout-or-duplicate');
    else {
      redeemed.add(response);
      answer = { success: true, challenge_ts: new Date().toISOString(), hostname: token.hostname, 'error-codes': [], action: token.action, cdata: token.cdata };
    }
    if (idempotencyKey) byIdempotencyKey.set(idempotencyKey, { response, answer });
    return answer;
  };

  const server = createServer(async (request, response) => {
    if (request.method !== 'POST') {
      response.writeHead(405).end();
      return;
    }
    const contentType = request.headers['content-type'] ?? '';
    const body = await text(request);
    const fields: Record<string, string> = contentType.includes('application/json')
      ? (JSON.parse(body) as Record<string, string>)
      : Object.fromEntries(new URLSearchParams(body));
    requests.push({ contentType, fields });
    if (failuresToServe > 0) {
      failuresToServe--;
      if (failureKind === 'internal-error')
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false, 'error-codes': ['internal-error'] }));
      else response.writeHead(502, { 'content-type': 'text/html' }).end('<html>bad gateway</html>');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(verify(fields)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/turnstile/v0/siteverify`,
    /** What the widget would hand the browser after a solved challenge. */
    issueToken(token: Partial<IssuedToken> = {}): string {
      const value = `0.${randomUUID().replace(/-/g, '')}.${randomUUID().replace(/-/g, '')}`;
      issued.set(value, { hostname: token.hostname ?? 'localhost', action: token.action ?? '', cdata: token.cdata ?? '' });
      return value;
    },
    /** Every request received, in order. */
    requests,
    /**
     * The next `count` requests fail: with a 502 page instead of an answer (an edge failure), or
     * with Cloudflare's own `internal-error` answer, which its documentation says may be retried.
     */
    failNext(count: number, kind: 'edge' | 'internal-error' = 'edge') {
      failuresToServe = count;
      failureKind = kind;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TestSiteverify = Awaited<ReturnType<typeof startSiteverify>>;
