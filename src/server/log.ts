import type { Logger } from '../api/operation.ts';

// Structured logs: one JSON object per line. Request lines go to stdout (and can be turned
// off); errors always go to stderr. Never log bodies, tokens or keys.

export interface RequestLogLine {
  method: string;
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
}

export interface ServerLogger extends Logger {
  /** Null when request lines are off, so callers skip measuring. */
  request: ((line: RequestLogLine) => void) | null;
}

export function createServerLogger(options: { requests: boolean; stdout?: NodeJS.WritableStream; stderr?: NodeJS.WritableStream }): ServerLogger {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const write = (stream: NodeJS.WritableStream, level: string, msg: string, fields?: Record<string, unknown>) =>
    stream.write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields })}\n`);
  return {
    info: (msg, fields) => write(stdout, 'info', msg, fields),
    error: (msg, fields) => write(stderr, 'error', msg, fields),
    request: options.requests ? (line) => write(stdout, 'info', 'request', { ...line }) : null,
  };
}
