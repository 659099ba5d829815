import { createHmac } from 'node:crypto';

// How a delivery proves it comes from Crucible (src/webhooks/README.md, "Signatures"): each attempt
// is signed with the webhook's signing key, at the time it is sent.

/**
 * The headers that sign one attempt of a delivery, sent at `sentAtMs`, all keyed with the webhook's
 * signing key (src/webhooks/README.md):
 * - `X-Crucible-Timestamp`: the attempt's time in unix seconds (each retry has its own), and
 *   `X-Crucible-Signature`: hex HMAC-SHA256 of `<timestamp>.<raw body>`, so a receiver that refuses a
 *   timestamp more than 5 minutes from its clock refuses replays.
 * - `X-Alchemy-Signature`: hex HMAC-SHA256 of the raw body alone, as the incumbent signs it, so
 *   receivers written for its webhooks keep working (a captured delivery verifies again when replayed).
 */
export function signatureHeaders(body: string, signingKey: string, sentAtMs: number): Record<string, string> {
  const timestamp = String(Math.floor(sentAtMs / 1000));
  return {
    'x-crucible-timestamp': timestamp,
    'x-crucible-signature': createHmac('sha256', signingKey).update(`${timestamp}.${body}`).digest('hex'),
    'x-alchemy-signature': createHmac('sha256', signingKey).update(body).digest('hex'),
  };
}
