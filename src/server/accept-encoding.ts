import { LRUCache } from 'lru-cache';
import { parseWeightedValues } from '../http/weighted-values.ts';

// Picks the precompressed variant to send (RFC 9110 12.5.3): brotli over gzip when both are
// acceptable at the same q; `identity` unless explicitly refused (we then still send it, as
// most servers do, rather than 406).

export type Encoding = 'br' | 'gzip' | 'identity';

type Available = { br: boolean; gzip: boolean };

/** The best of the `available` encodings for this Accept-Encoding. */
export function chooseEncoding(header: string | undefined, available: Available): Encoding {
  if (!header || (!available.br && !available.gzip)) return 'identity';
  // A coding listed twice takes its last weight.
  const accepted = new Map(parseWeightedValues(header).map(({ value, q }) => [value, q]));
  const qOf = (coding: string) => accepted.get(coding) ?? (coding === 'gzip' ? accepted.get('x-gzip') : undefined) ?? accepted.get('*') ?? 0;
  const identity = accepted.get('identity') ?? (accepted.has('*') ? accepted.get('*')! : 1);
  let best: Encoding = 'identity';
  let bestQ = identity;
  // Ties favour the smaller variant: br first, then gzip, then identity.
  for (const coding of ['gzip', 'br'] as const) {
    const q = available[coding] ? qOf(coding) : 0;
    if (q > 0 && q >= bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  return best;
}

/** Clients repeat a handful of Accept-Encoding strings; remember the answer for each (bounded). */
export function cachedChooseEncoding(limit = 256): typeof chooseEncoding {
  type Asked = { header: string; available: Available };
  const answers = new LRUCache<string, Encoding, Asked>({
    max: limit,
    memoMethod: (_key, _stale, { context }) => chooseEncoding(context.header, context.available),
  });
  return (header, available) =>
    header ? answers.memo(`${available.br ? 'b' : ''}${available.gzip ? 'g' : ''}|${header}`, { context: { header, available } }) : 'identity';
}
