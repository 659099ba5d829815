// What the price core answers instead of throwing (docs/prices.md#aggregation): a source that says something
// unusable is an everyday event, not an exception, and the caller records why it was left out.

/** A failure with a code to branch on and a sentence for logs and the per-item `error` of answers. */
export interface Failure<Code extends string> {
  code: Code;
  message: string;
}

export type Result<T, Code extends string> = { ok: true; value: T } | { ok: false; error: Failure<Code> };

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });

export const fail = <Code extends string>(code: Code, message: string): { ok: false; error: Failure<Code> } => ({ ok: false, error: { code, message } });
