import { describe, expect, it } from 'vitest';
import { moveActive, opensSearch, shortcutLabel, type KeyPress } from '../../../src/search/keys.ts';

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({ key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods });

describe('opensSearch', () => {
  it('opens on Ctrl-K and Cmd-K, even while typing in a field', () => {
    expect(opensSearch(press('k', { ctrlKey: true }), true)).toBe(true);
    expect(opensSearch(press('K', { metaKey: true }), false)).toBe(true);
  });

  it('opens on / only outside fields', () => {
    expect(opensSearch(press('/'), false)).toBe(true);
    expect(opensSearch(press('/'), true)).toBe(false);
  });

  it('ignores other keys, extra modifiers and IME composition', () => {
    expect(opensSearch(press('k'), false)).toBe(false);
    expect(opensSearch(press('k', { ctrlKey: true, shiftKey: true }), false)).toBe(false);
    expect(opensSearch(press('k', { ctrlKey: true, altKey: true }), false)).toBe(false);
    expect(opensSearch(press('k', { ctrlKey: true, metaKey: true }), false)).toBe(false);
    expect(opensSearch(press('/', { ctrlKey: true }), false)).toBe(false);
    expect(opensSearch(press('k', { ctrlKey: true, isComposing: true }), false)).toBe(false);
  });
});

describe('moveActive', () => {
  it('starts at the first or last option and wraps around', () => {
    expect(moveActive(-1, 3, 1)).toBe(0);
    expect(moveActive(-1, 3, -1)).toBe(2);
    expect(moveActive(2, 3, 1)).toBe(0);
    expect(moveActive(0, 3, -1)).toBe(2);
    expect(moveActive(1, 3, 1)).toBe(2);
  });

  it('has nothing to activate without options', () => {
    expect(moveActive(-1, 0, 1)).toBe(-1);
  });
});

describe('shortcutLabel', () => {
  it('shows ⌘K on Apple platforms and Ctrl K elsewhere', () => {
    expect(shortcutLabel('MacIntel')).toBe('⌘K');
    expect(shortcutLabel('iPhone')).toBe('⌘K');
    expect(shortcutLabel('Linux x86_64')).toBe('Ctrl K');
    expect(shortcutLabel('Win32')).toBe('Ctrl K');
  });
});
