// Picks the precompressed variant to send (RFC 9110 12.5.3): brotli over gzip when both are
// acceptable at the same q; `identity` unless explicitly refused (we then still send it, as
// most servers do, rather than 406).

export type Encoding = 'br' | 'gzip' | 'identity';

export function acceptedEncodings(header: string | undefined): Map<string, number> {
  const accepted = new Map<string, number>();
  if (!header) return accepted;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';');
    const coding = name.trim().toLowerCase();
    if (!coding) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split('=').map((s) => s.trim());
      if (key?.toLowerCase() === 'q') q = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value ?? '') ? Number(value) : 0;
    }
    accepted.set(coding, q);
  }
  return accepted;
}

/** The best of the `available` encodings for this Accept-Encoding. */
export function chooseEncoding(header: string | undefined, available: { br: boolean; gzip: boolean }): Encoding {
  if (!header || (!available.br && !available.gzip)) return 'identity';
  const accepted = acceptedEncodings(header);
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
  const cache = new Map<string, Encoding>();
  return (header, available) => {
    if (!header) return 'identity';
    const key = `${available.br ? 'b' : ''}${available.gzip ? 'g' : ''}|${header}`;
    let answer = cache.get(key);
    if (answer === undefined) {
      answer = chooseEncoding(header, available);
      if (cache.size >= limit) cache.clear();
      cache.set(key, answer);
    }
    return answer;
  };
}
