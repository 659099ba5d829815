/** The Retry-After header's value: whole seconds, never 0 (a client told 0 would retry at once and be refused again). */
export function retryAfterSeconds(waitMs: number): number {
  return Math.max(1, Math.ceil(waitMs / 1000));
}
