import { createKeepAliveClient, type HttpAnswer } from '../../net/keep-alive-client.ts';
import { OutboundError } from '../../net/outbound-error.ts';

// One upstream JSON-RPC endpoint: POSTs bodies over kept-alive connections (src/net/README.md)
// and keeps the figures the pool decides with (docs/json-rpc.md#upstreams): its head, its recent errors, its latency.

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
  /**
   * POSTs a JSON-RPC body; resolves with the answer's text (any HTTP status below 500 except 429), or
   * rejects with UpstreamError. `timeoutMs` replaces the upstream's deadline for this call.
   */
  post(body: string, timeoutMs?: number): Promise<string>;
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
  const client = createKeepAliveClient(parsed, {
    maxSockets: options.maxSockets ?? 128,
    timeoutMs: options.timeoutMs,
    maxBytes: options.maxResponseBytes ?? 64 * 1024 * 1024,
  });
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

  const post = async (body: string, timeoutMs?: number): Promise<string> => {
    let answer: HttpAnswer;
    try {
      answer = await client.post(body, { timeoutMs });
    } catch (error) {
      record(false);
      if (error instanceof OutboundError && error.kind === 'timeout')
        throw new UpstreamError('timeout', `${label} did not answer within ${timeoutMs ?? options.timeoutMs} ms`);
      throw new UpstreamError('connection', `${label}: ${error instanceof Error ? error.message : String(error)}`);
    }
    // 429 and 5xx say nothing about the call itself: another upstream may answer it.
    if (answer.status >= 500 || answer.status === 429) {
      record(false);
      throw new UpstreamError('http', `${label} answered HTTP ${answer.status}`, answer.status);
    }
    record(true);
    return answer.text;
  };

  return {
    url,
    label,
    post,
    recordHead(value, at) {
      head = value;
      headAt = at;
    },
    health: () => ({ label, head, headAt, errorRate: outcomes.length ? failures / outcomes.length : 0, consecutiveFailures }),
    close: () => client.close(),
  };
}

/**
 * Providers put the key in the URL (`/v2/<key>`, `?apikey=`): a label keeps the scheme, host
 * and port only, so logs and metrics never carry it.
 */
function upstreamLabel(url: URL): string {
  return `${url.protocol}//${url.host}`;
}
