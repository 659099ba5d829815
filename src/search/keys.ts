/** The parts of a KeyboardEvent the shortcuts look at. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  isComposing?: boolean;
}

/**
 * Ctrl-K or ⌘-K opens search from anywhere; `/` opens it only when the user is not typing in a
 * field (where `/` is just a character).
 */
export function opensSearch(press: KeyPress, typingInField: boolean): boolean {
  if (press.isComposing || press.altKey || press.shiftKey) return false;
  if (press.ctrlKey !== press.metaKey && press.key.toLowerCase() === 'k') return true;
  return press.key === '/' && !press.ctrlKey && !press.metaKey && !typingInField;
}

/** The next active option when moving by `step` through `count` options; -1 means none. Wraps. */
export function moveActive(current: number, count: number, step: 1 | -1): number {
  if (count === 0) return -1;
  if (current < 0) return step === 1 ? 0 : count - 1;
  return (current + step + count) % count;
}

/** Apple platforms show ⌘, the others Ctrl. */
export function shortcutLabel(platform: string): string {
  return /mac|iphone|ipad|ipod/i.test(platform) ? '⌘K' : 'Ctrl K';
}
