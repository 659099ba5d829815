import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type BlockList } from 'node:net';
import { isBlockedAddress } from '../nfts/blocked-addresses.ts';
import { BlockedAddressError, guardedLookup } from '../nfts/guarded-lookup.ts';

// One POST of a delivery to its webhook's URL (platform §6): the raw JSON body, its signature headers
// (payload.ts: signatureHeaders), one deadline for the whole exchange (the receiver's 5 s), no
// redirects followed (a 3xx is a failure), and, with a block list (production),
// no connection to a non-public address: an IP literal is refused before connecting, a name inside
// the connection's own lookup (src/nfts/guarded-lookup.ts), so DNS cannot swap the address.

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
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  if (options.blockedAddresses && isIP(host) && isBlockedAddress(host, options.blockedAddresses)) {
    return { ok: false, status: null, error: `blocked address ${host}` };
  }
  const deadline = AbortSignal.timeout(options.timeoutMs);
  try {
    const status = await new Promise<number>((resolve, reject) => {
      const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, {
        method: 'POST',
        agent: false,
        signal: deadline,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': USER_AGENT,
          ...signatures,
        },
        ...(options.blockedAddresses && { lookup: guardedLookup(options.blockedAddresses) }),
      });
      request.once('error', reject);
      request.once('response', (response) => {
        // The status is the answer; the body is read and dropped, at most MAX_ANSWER_BYTES of it.
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) response.destroy();
        });
        response.on('error', () => {});
        resolve(response.statusCode ?? 0);
      });
      request.end(body);
    });
    if (status >= 200 && status <= 299) return { ok: true, status };
    return { ok: false, status, error: `HTTP ${status}` };
  } catch (error) {
    if (deadline.aborted) return { ok: false, status: null, error: `no answer within ${options.timeoutMs} ms` };
    if (error instanceof BlockedAddressError) return { ok: false, status: null, error: error.message };
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, status: null, error: `connection failed: ${code ?? (error instanceof Error ? error.message : String(error))}` };
  }
}
