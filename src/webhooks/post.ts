import type { BlockList } from 'node:net';
import { OutboundError } from '../net/outbound-error.ts';
import { outboundRequest } from '../net/outbound-request.ts';

// One POST of a delivery to its webhook's URL (docs/webhooks.md#delivery), through the outbound layer
// (src/net/README.md): the raw JSON body, its signature headers (payload.ts: signatureHeaders), one
// deadline for the whole exchange (the receiver's 5 s), no redirects followed (a 3xx is a failure),
// and, with a block list (production), no connection to a non-public address, checked on the address
// each connection is made to, so DNS cannot swap it.

export interface PostOptions {
  timeoutMs: number;
  /** NON_PUBLIC_ADDRESSES outside local mode; null: any address. */
  blockedAddresses: BlockList | null;
}

export type PostResult = { ok: true; status: number } | { ok: false; status: number | null; error: string };

const USER_AGENT = 'Crucible-Webhooks/1';
/** Bytes of a receiver's answer read (and dropped) before the connection is closed. */
const MAX_ANSWER_BYTES = 64 * 1024;

export async function postDelivery(url: string, body: string, signatures: Record<string, string>, options: PostOptions): Promise<PostResult> {
  const target = URL.parse(url);
  if (!target || (target.protocol !== 'https:' && target.protocol !== 'http:')) return { ok: false, status: null, error: 'not an http(s) URL' };
  try {
    // The status is the answer; the body is read and dropped.
    const { status } = await outboundRequest(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT, ...signatures },
      body,
      timeoutMs: options.timeoutMs,
      maxBytes: MAX_ANSWER_BYTES,
      addresses: { blocked: options.blockedAddresses, exemptOrigin: null },
      read: 'status',
    });
    if (status >= 200 && status <= 299) return { ok: true, status };
    return { ok: false, status, error: `HTTP ${status}` };
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    return { ok: false, status: null, error: deliveryError(error) };
  }
}

/** A failed attempt's `error`, as the deliveries API shows it. */
function deliveryError(error: OutboundError): string {
  // The system's code as it is (`connection failed: ECONNREFUSED`); other failures say what they are.
  return error.kind === 'unreachable' && error.code ? `connection failed: ${error.code}` : error.message;
}
