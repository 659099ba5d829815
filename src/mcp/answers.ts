import { createHash } from 'node:crypto';

// Answers sized for a model (docs/mcp.md#answers): a tool's answer is one JSON text of at most the
// budget's characters (MCP_ANSWER_BUDGET_CHARS). An answer that fits is `{ result, truncated: false }`.
// One that does not is sliced: the items of its largest list that fit, or else its text from an
// offset, with `truncated: true`, what `slice` it holds and, when more follows, a `cursor`. The
// cursor is opaque to the caller: the same call with it is made again and answers the next slice.
// It names the call it belongs to (a hash of the tool and its inputs), so another call refuses it.

/** What an answer is sliced at: which list (its path from the answer's root) or the text, from where. */
interface CursorState {
  /** The call's hash: the same tool with the same inputs. */
  h: string;
  /** `items` of the list at `p`, or `text` characters. */
  k: 'items' | 'text';
  p?: Array<string | number>;
  /** The first item, or character, of the slice. */
  o: number;
}

export class CursorError extends Error {
  override name = 'CursorError';
}

const NOT_A_CURSOR = 'This cursor is not one this server gave: pass the cursor of a truncated answer as it was given.';
const STALE_CURSOR = 'This cursor does not fit the answer any more (it changed since): make the call again without it.';

/** The hash a cursor names its call by: the tool and its inputs (but the cursor), keys in order. */
export function callHash(tool: string, inputs: Record<string, unknown>): string {
  return createHash('sha256')
    .update(`${tool}\n${canonicalJson(inputs)}`)
    .digest('base64url')
    .slice(0, 16);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const encodeCursor = (state: CursorState) => Buffer.from(JSON.stringify(state)).toString('base64url');

/** The state a cursor of this call holds; a cursor of another call, or none that this server wrote, is refused. */
export function readCursor(cursor: string, hash: string): CursorState {
  let state: unknown;
  try {
    state = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new CursorError(NOT_A_CURSOR);
  }
  const valid =
    typeof state === 'object' &&
    state !== null &&
    typeof (state as CursorState).h === 'string' &&
    ((state as CursorState).k === 'items' || (state as CursorState).k === 'text') &&
    Number.isSafeInteger((state as CursorState).o) &&
    (state as CursorState).o >= 0 &&
    ((state as CursorState).p === undefined || Array.isArray((state as CursorState).p));
  if (!valid) throw new CursorError(NOT_A_CURSOR);
  if ((state as CursorState).h !== hash)
    throw new CursorError('This cursor belongs to another call: pass it with the same tool and the same inputs as the call that gave it.');
  return state as CursorState;
}

/** The answer as a tool returns it: one JSON text, within `budget` characters. */
export function sizedAnswer(
  value: unknown,
  options: {
    budget: number;
    /** The call's hash (callHash), asked only when a cursor is written: most answers fit. */
    hash: () => string;
    cursor: CursorState | null;
    extra?: Record<string, unknown>;
  },
): string {
  const { budget, hash, cursor, extra = {} } = options;
  if (cursor === null) {
    const whole = JSON.stringify({ result: value, ...extra, truncated: false });
    if (whole.length <= budget) return whole;
  }
  if (cursor?.k === 'items') {
    const items = listAt(value, cursor.p ?? []);
    const sliced = items?.length ? itemSlice(value, cursor.p ?? [], items, cursor.o, budget, hash, extra) : null;
    if (!sliced) throw new CursorError(STALE_CURSOR);
    return sliced;
  }
  if (cursor === null) {
    // The largest lists first: the first whose items can be sliced within the budget is.
    for (const list of largestLists(value)) {
      const sliced = itemSlice(value, list.path, list.items, 0, budget, hash, extra);
      if (sliced) return sliced;
    }
  }
  return textSlice(typeof value === 'string' ? value : JSON.stringify(value, null, 1), cursor?.o ?? 0, budget, hash, extra);
}

/** The list at `path`, or undefined when the answer has none there. */
function listAt(value: unknown, path: ReadonlyArray<string | number>): unknown[] | undefined {
  let at: unknown = value;
  for (const step of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string | number, unknown>)[step];
  }
  return Array.isArray(at) ? at : undefined;
}

/** Lists tried before an answer is sliced as text: the largest few. */
const LISTS_TRIED = 8;

/** The lists of more than one item, at any depth (the root too), those whose items take the most characters first. */
function largestLists(value: unknown): Array<{ path: Array<string | number>; items: unknown[] }> {
  const lists: Array<{ path: Array<string | number>; items: unknown[]; size: number }> = [];
  const visit = (at: unknown, path: Array<string | number>): number => {
    if (at === null || typeof at !== 'object') return JSON.stringify(at)?.length ?? 4;
    let size = 2;
    for (const [key, item] of Object.entries(at)) size += visit(item, [...path, Array.isArray(at) ? Number(key) : key]) + key.length + 4;
    if (Array.isArray(at) && at.length > 1) lists.push({ path, items: at, size });
    return size;
  };
  visit(value, []);
  return lists.sort((a, b) => b.size - a.size).slice(0, LISTS_TRIED);
}

/** The answer with the list at `path` replaced by `items`. */
function withList(value: unknown, path: ReadonlyArray<string | number>, items: unknown[]): unknown {
  if (path.length === 0) return items;
  const [step, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, i) => (i === step ? withList(item, rest, items) : item));
  return { ...(value as Record<string, unknown>), [step!]: withList((value as Record<string | number, unknown>)[step!], rest, items) };
}

/** The list's items from `from` that fit the budget beside the rest of the answer; null when not even one does. */
function itemSlice(
  value: unknown,
  path: Array<string | number>,
  items: unknown[],
  from: number,
  budget: number,
  hash: () => string,
  extra: Record<string, unknown>,
): string | null {
  if (from >= items.length) throw new CursorError(STALE_CURSOR);
  const render = (to: number) => {
    const more = to < items.length;
    return JSON.stringify({
      result: withList(value, path, items.slice(from, to)),
      ...extra,
      truncated: true,
      slice: { list: path.join('.') || '(the answer)', from, to, of: items.length },
      ...(more ? { cursor: encodeCursor({ h: hash(), k: 'items', p: path, o: to }) } : {}),
    });
  };
  // The envelope without items, then each item in turn while the whole stays within the budget.
  let size = render(from).length;
  let to = from;
  while (to < items.length) {
    const itemSize = (JSON.stringify(items[to]) ?? 'null').length + 1;
    if (size + itemSize > budget) break;
    size += itemSize;
    to++;
  }
  if (to === from) return null;
  // The cursor's length is counted once the end is known: drop items until the whole fits.
  let text = render(to);
  while (text.length > budget && to > from + 1) text = render(--to);
  return text.length <= budget ? text : null;
}

/** The answer's text from `from`, as much as fits, cut at a line's end where one is near. */
function textSlice(text: string, from: number, budget: number, hash: () => string, extra: Record<string, unknown>): string {
  if (from > 0 && from >= text.length) throw new CursorError(STALE_CURSOR);
  const envelope = (slice: string, to: number) =>
    JSON.stringify({
      text: slice,
      ...extra,
      truncated: from > 0 || to < text.length,
      slice: { from, to, of: text.length },
      ...(to < text.length ? { cursor: encodeCursor({ h: hash(), k: 'text', o: to }) } : {}),
    });
  // Escapes make JSON longer than its text: shrink the slice until the envelope fits.
  let room = budget - envelope('', from).length - 80;
  for (;;) {
    let to = Math.min(text.length, from + Math.max(room, 1));
    const lineEnd = text.lastIndexOf('\n', to - 1);
    if (to < text.length && lineEnd > from + (to - from) * 0.8) to = lineEnd + 1;
    const answer = envelope(text.slice(from, to), to);
    if (answer.length <= budget || to - from <= 1) return answer;
    room = Math.floor((to - from) * (budget / answer.length)) - 1;
  }
}
