// A fetch for viem's HTTP transport that waits out 429s: a client of our own gateway (the world's
// swap through `{node_url}/v2/demo`) whose burst of requests meets the demo key's limit.

/** Times one request is made while it is answered 429 (Retry-After: a second, on the demo key). */
const RATE_LIMITED_ATTEMPTS = 30;

/**
 * fetch that waits out a 429 for as long as its Retry-After says and asks again. A world swap makes
 * some twenty requests within a second or two, about the demo key's burst on `{node_url}/v2/demo`,
 * and viem repeats neither eth_sendRawTransaction nor a request refused after its own few retries;
 * the gateway answers a 429 before anything is forwarded, so asking again never sends a transaction
 * twice.
 */
export async function fetchPastRateLimits(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(input, init);
    if (response.status !== 429 || attempt === RATE_LIMITED_ATTEMPTS) return response;
    await response.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 1000 * Math.max(1, Number(response.headers.get('retry-after')) || 1)));
  }
}
