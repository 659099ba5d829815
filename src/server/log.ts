import type { Logger } from '../api/operation.ts';
import { WORLD_DOCUMENTS_PATH } from '../chain/world/metadata.ts';
import { redactKeyPaths, redactUrls } from '../log/redact.ts';
import { NFT_FETCHER_USER_AGENT } from '../nfts/safe-fetch.ts';

// Structured logs: one JSON object per line. Request lines go to stdout (and can be turned
// off; the platform's own fetches of its world documents get none unless REQUEST_LOG=all); errors
// always go to stderr. Never log bodies, tokens or keys: a request line's path has
// its app key replaced by `<key>`, and an error line carries messages and stacks the server did
// not write, so every string in it has its URLs cut to their origin and its paths' keys replaced.

interface RequestLogLine {
  method: string;
  /** As received: the logger redacts its key. */
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
  /** The app a node key names (or `demo`): logs name apps, never keys (docs/hosts-and-paths.md#route-families). */
  app?: string;
}

export interface ServerLogger extends Logger {
  /** Null when request lines are off, so callers skip measuring. */
  request: ((line: RequestLogLine) => void) | null;
  /** Whether a request gets no request line: the platform's own fetches of the local world's documents, unless they are asked for. */
  leavesOut(request: { method: string; path: string; userAgent: string | undefined }): boolean;
}

/**
 * The NFT fetcher reading the local world's hosted documents and images from the site itself
 * (local mode: every hosted token at start, hundreds of lines that say nothing of the site's
 * clients). Only GETs of those public static files: a client that sends the fetcher's User-Agent
 * hides nothing else from the log.
 */
function isOwnWorldFetch(request: { method: string; path: string; userAgent: string | undefined }): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') && request.path.startsWith(WORLD_DOCUMENTS_PATH) && request.userAgent === NFT_FETCHER_USER_AGENT
  );
}

export function createServerLogger(options: {
  requests: boolean;
  /** Request lines for the platform's own fetches of its world documents too (REQUEST_LOG=all). */
  ownFetches?: boolean;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}): ServerLogger {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const write = (stream: NodeJS.WritableStream, level: string, msg: string, fields?: Record<string, unknown>, replacer?: Replacer) =>
    stream.write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }, replacer)}\n`);
  return {
    info: (msg, fields) => write(stdout, 'info', msg, fields),
    error: (msg, fields) => write(stderr, 'error', msg, fields, redactStrings),
    request: options.requests ? (line) => write(stdout, 'info', 'request', { ...line, path: redactKeyPaths(line.path) }) : null,
    leavesOut: (request) => !options.ownFetches && isOwnWorldFetch(request),
  };
}

type Replacer = (key: string, value: unknown) => unknown;

const redactStrings: Replacer = (_key, value) => (typeof value === 'string' ? redactKeyPaths(redactUrls(value)) : value);
