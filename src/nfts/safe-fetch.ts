import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type BlockList } from 'node:net';
import { isBlockedAddress } from './blocked-addresses.ts';
import { nftFetchFailure, type NftFetchError, type NftFetchFailure } from './fetch-error.ts';
import { BlockedAddressError, guardedLookup } from './guarded-lookup.ts';

// One GET of a metadata document or an image from a URL anyone may have written (platform §5):
// http(s) only; one deadline for the whole fetch, redirects and body included; the body cut off at
// a size cap while it streams (a declared larger Content-Length fails at once); redirects followed
// by hand, each hop checked again as the first; and, with a block list, no connection to an address
// in it: an IP literal is checked before connecting, a name by the connection's own DNS lookup
// (guarded-lookup.ts). The site's own origin may be exempt (NFT_FETCH_PRIVATE=site, local mode's
// default): it serves the local world's documents from this machine, and is exempt by its whole
// origin (scheme, host and port), so no other service here is reached through it.
// node:http rather than fetch, because its `lookup` option is that lookup.

/** Redirects followed before a fetch fails. */
export const MAX_REDIRECTS = 3;

export interface SafeFetchOptions {
  /** The whole fetch: every hop and the body. */
  timeoutMs: number;
  /** Body bytes at most. */
  maxBytes: number;
  /** Addresses never connected to: NON_PUBLIC_ADDRESSES unless NFT_FETCH_PRIVATE=allow; null: any. */
  blockedAddresses: BlockList | null;
  /** An origin fetched whatever its address: the site's own with NFT_FETCH_PRIVATE=site; absent or null: none. */
  siteOrigin?: string | null;
  /** The Accept header. */
  accept?: string;
}

export interface FetchedBody {
  ok: true;
  /** The URL the body came from, after redirects. */
  url: URL;
  /** The Content-Type header as sent; null when none. */
  contentType: string | null;
  bytes: Uint8Array;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'Crucible-NFT-Fetcher/1';

export async function safeFetch(url: URL, options: SafeFetchOptions): Promise<FetchedBody | NftFetchFailure> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  try {
    let target = url;
    for (let redirects = 0; ; redirects++) {
      const blocked = target.origin === options.siteOrigin ? null : options.blockedAddresses;
      const refused = refusedTarget(target, blocked);
      if (refused) return { ok: false, error: refused };
      const response = await send(target, { accept: options.accept, blocked }, deadline.signal);
      const status = response.statusCode ?? 0;
      if (REDIRECTS.has(status) && response.headers.location !== undefined) {
        response.destroy();
        if (redirects === MAX_REDIRECTS) return nftFetchFailure('too_many_redirects', `more than ${MAX_REDIRECTS} redirects`);
        if (!URL.canParse(response.headers.location, target)) return nftFetchFailure('http_status', `HTTP ${status} to a bad location`);
        target = new URL(response.headers.location, target);
        continue;
      }
      if (status < 200 || status > 299) {
        response.destroy();
        return nftFetchFailure('http_status', `HTTP ${status}`);
      }
      const encoding = response.headers['content-encoding']?.trim().toLowerCase();
      if (encoding && encoding !== 'identity') {
        response.destroy();
        return nftFetchFailure('http_status', `unasked content-encoding ${encoding}`);
      }
      const declared = Number(response.headers['content-length']);
      const bytes = declared > options.maxBytes ? null : await readAtMost(response, options.maxBytes);
      if (!bytes) {
        response.destroy();
        return nftFetchFailure('too_large', 'too large');
      }
      return { ok: true, url: target, contentType: response.headers['content-type'] ?? null, bytes };
    }
  } catch (error) {
    return { ok: false, error: deadline.signal.aborted ? { code: 'timeout', reason: 'timeout' } : connectionError(error) };
  } finally {
    clearTimeout(timer);
  }
}

/** Why a hop may not be fetched before any connection: its scheme, or an IP literal host in the block list. */
function refusedTarget(url: URL, blocked: BlockList | null): NftFetchError | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { code: 'unsupported_uri', reason: `unsupported URI scheme ${url.protocol}` };
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  // A name is checked by the connection's lookup; an IP literal is never looked up.
  if (blocked && isIP(host) && isBlockedAddress(host, blocked)) return { code: 'blocked_address', reason: `blocked address ${host}` };
  return null;
}

function send(url: URL, options: { accept: string | undefined; blocked: BlockList | null }, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      // A connection of its own: no pooled socket, no proxy, every hop through the lookup below.
      agent: false,
      signal,
      headers: { accept: options.accept ?? '*/*', 'accept-encoding': 'identity', 'user-agent': USER_AGENT },
      ...(options.blocked && { lookup: guardedLookup(options.blocked) }),
    });
    request.once('response', resolve);
    request.once('error', reject);
    request.end();
  });
}

/** The body, or null once it passes `maxBytes` (the rest is not read). */
async function readAtMost(response: IncomingMessage, maxBytes: number): Promise<Uint8Array | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) return null;
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks, size));
}

function connectionError(error: unknown): NftFetchError {
  if (error instanceof BlockedAddressError) return { code: 'blocked_address', reason: error.message };
  const code = (error as NodeJS.ErrnoException).code;
  const reason: Record<string, string> = {
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host not found',
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
  };
  return { code: 'unreachable', reason: (code && reason[code]) ?? `connection failed: ${code ?? (error instanceof Error ? error.message : String(error))}` };
}
