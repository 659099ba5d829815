import { CrucibleError } from '../errors/crucible-error.ts';
import { ipBucketOf } from '../http/ip-bucket.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import { retryAfterSeconds } from '../limits/retry-after.ts';

// What a request with a body pays before the body is read (README, "Security limits"): one
// request from its client IP's bucket (API_BODY_REQUESTS_PER_SECOND, API_BODY_REQUESTS_BURST),
// shared by every body under /api/ and by the keyed REST products', so that nothing is read or
// parsed for a client that has not paid.

export interface BodyBucket {
  limiter: RateLimiter;
  requestsPerSecond: number;
  burst: number;
  /** IPv6 clients count per prefix of this length. */
  ipv6PrefixLength: number;
}

/** Takes one request from the client's bucket: null when it may send its body, else the 429 to answer with the body unread. */
export async function payForBody(bucket: BodyBucket | undefined, clientIp: string | null): Promise<CrucibleError | null> {
  if (!bucket) return null;
  const rule = { ratePerSecond: bucket.requestsPerSecond, burst: bucket.burst };
  const decision = await bucket.limiter.take(`api-body:${ipBucketOf(clientIp, bucket.ipv6PrefixLength)}`, 1, rule);
  if (decision.allowed) return null;
  const message = `Too many requests with a body from this client: the limit is ${bucket.requestsPerSecond} a second, in bursts of ${bucket.burst}.`;
  return new CrucibleError('rate_limited', message, { retryAfterSeconds: retryAfterSeconds(decision.retryAfterMs) });
}
