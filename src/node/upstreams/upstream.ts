import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

// One upstream JSON-RPC endpoint: POSTs bodies over kept-alive connections and keeps the
// figures the pool decides with (platform §3): its head, its recent errors, its latency.

/** Why a call got no JSON-RPC answer: the pool retries idempotent reads on another upstream for these. */
export class UpstreamError extends Error {
  override name = 'UpstreamError';
  readonly kind: 'connection' | 'timeout' | 'http';
  readonly status: number | undefined;
  constructor(kind: UpstreamError['kind'], message: string, status?: number) {
    super(message);
    this.kind = kind;
    this.status = status;
  }
}

export interface UpstreamHealth {
  /** The upstream's URL with any credentials and path secrets removed, for logs and metrics. */
  label: string;
  /** Last head seen by a probe; null before the first answer. */
  head: bigint | null;
  /** When `head` was read (ms since the epoch); 0 before. */
  headAt: number;
  /** Failures among the last calls (probes included), 0–1; 0 before any call. */
  errorRate: number;
  /** Calls that failed in a row, up to the last success. */
  consecutiveFailures: number;
}

export interface Upstream {
  readonly url: string;
  readonly label: string;
  /** POSTs a JSON-RPC body; resolves with the answer's text (any HTTP status below 500 except 429), or rejects with UpstreamError. */
  post(body: string): Promise<string>;
  /** Records a probe's head. */
  recordHead(head: bigint, at: number): void;
  health(): UpstreamHealth;
  close(): void;
}

export interface UpstreamOptions {
  timeoutMs: number;
  /** Connections kept per upstream: enough that a burst of clients does not queue behind each other. */
  maxSockets?: number;
  /** Answers larger than this are cut off as a failure (a node's answer to eth_getLogs can be large). */
  maxResponseBytes?: number;
}

/** How many recent outcomes the error rate is computed over. */
const OUTCOME_WINDOW = 50;

export function createUpstream(url: string, options: UpstreamOptions): Upstream {
  const parsed = new URL(url);
  const secure = parsed.protocol === 'https:';
  const agent = secure
    ? new HttpsAgent({ keepAlive: true, maxSockets: options.maxSockets ?? 128 })
    : new HttpAgent({ keepAlive: true, maxSockets: options.maxSockets ?? 128 });
  const send = secure ? httpsRequest : httpRequest;
  const maxResponseBytes = options.maxResponseBytes ?? 64 * 1024 * 1024;
  const label = upstreamLabel(parsed);
  const outcomes: boolean[] = [];
  let failures = 0;
  let consecutiveFailures = 0;
  let head: bigint | null = null;
  let headAt = 0;

  const record = (ok: boolean) => {
    outcomes.push(ok);
    if (!ok) failures++;
    if (outcomes.length > OUTCOME_WINDOW && !outcomes.shift()) failures--;
    consecutiveFailures = ok ? 0 : consecutiveFailures + 1;
  };

  const post = (body: string) =>
    new Promise<string>((resolve, reject) => {
      const fail = (error: UpstreamError) => {
        record(false);
        reject(error);
      };
      const req = send(
        parsed,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), accept: 'application/json' },
          timeout: options.timeoutMs,
        },
        (res) =>
          readAnswer(res, maxResponseBytes).then(
            (text) => {
              const status = res.statusCode ?? 0;
              // 429 and 5xx say nothing about the call itself: another upstream may answer it.
              if (status >= 500 || status === 429) return fail(new UpstreamError('http', `${label} answered HTTP ${status}`, status));
              record(true);
              resolve(text);
            },
            (error: Error) => fail(new UpstreamError('connection', `${label}: ${error.message}`)),
          ),
      );
      req.once('timeout', () => req.destroy(new UpstreamError('timeout', `${label} did not answer within ${options.timeoutMs} ms`)));
      req.once('error', (error) => fail(error instanceof UpstreamError ? error : new UpstreamError('connection', `${label}: ${error.message}`)));
      req.end(body);
    });

  return {
    url,
    label,
    post,
    recordHead(value, at) {
      head = value;
      headAt = at;
    },
    health: () => ({ label, head, headAt, errorRate: outcomes.length ? failures / outcomes.length : 0, consecutiveFailures }),
    close: () => agent.destroy(),
  };
}

function readAnswer(res: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) res.destroy(new Error(`the answer is larger than ${maxBytes} bytes`));
      else chunks.push(chunk);
    });
    res.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.once('error', reject);
    res.once('aborted', () => reject(new Error('the connection closed mid-answer')));
  });
}

/**
 * Providers put the key in the URL (`/v2/<key>`, `?apikey=`): a label keeps the scheme, host
 * and port only, so logs and metrics never carry it.
 */
function upstreamLabel(url: URL): string {
  return `${url.protocol}//${url.host}`;
}
