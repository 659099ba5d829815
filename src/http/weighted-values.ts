// Accept-style request headers (RFC 9110 12.4.2): a comma-separated list of values, each with
// optional parameters, one of which may be the weight `q`. One parser for Accept (media ranges)
// and Accept-Encoding (content codings); each decision reads what it needs from the list.

export interface WeightedValue {
  /** Lower-cased, parameters dropped: `text/html`, `gzip`. */
  value: string;
  /** 0 to 1; a malformed weight counts as 0 (not acceptable). */
  q: number;
  /** Position in the header, junk entries counted: ties between equal weights go to the earlier. */
  index: number;
}

/** At most three decimals, never above 1 (RFC 9110 12.4.2). */
const weight = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

export function parseWeightedValues(header: string): WeightedValue[] {
  const values: WeightedValue[] = [];
  header.split(',').forEach((part, index) => {
    const [name = '', ...params] = part.split(';');
    const value = name.trim().toLowerCase();
    if (!value) return;
    let q = 1;
    for (const param of params) {
      const [key, raw] = param.split('=').map((s) => s.trim());
      if (key?.toLowerCase() === 'q') q = weight.test(raw ?? '') ? Number(raw) : 0;
    }
    values.push({ value, q, index });
  });
  return values;
}
