import { redactUrls } from '../log/redact.ts';

// What of a failure's `cause` may go to the log: each error's name and short message along its
// cause chain, with every URL cut to its origin, because RPC URLs carry API keys in their path
// (and Redis URLs a password). viem's long messages also repeat request bodies; its
// `shortMessage` and `details` do not.

const MAX_LENGTH = 1_000;

export function describeCause(error: unknown): string {
  const parts: string[] = [];
  const seen = new Set<unknown>();
  for (let current = error; current !== undefined && current !== null && !seen.has(current); current = (current as { cause?: unknown }).cause) {
    seen.add(current);
    if (!(current instanceof Error)) {
      parts.push(String(current));
      break;
    }
    const { shortMessage, details } = current as Error & { shortMessage?: unknown; details?: unknown };
    const text = typeof shortMessage === 'string' ? shortMessage : current.message.split('\n', 1)[0]!;
    parts.push(`${current.name}: ${text}${typeof details === 'string' && details && !text.includes(details) ? ` (${details})` : ''}`);
  }
  const described = redactUrls(parts.join(' <- '));
  return described.length > MAX_LENGTH ? `${described.slice(0, MAX_LENGTH)}…` : described;
}
