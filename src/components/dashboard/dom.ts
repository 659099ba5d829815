// Small DOM and formatting helpers of the dashboard's scripts: elements built with textContent
// (never HTML from data), and numbers and times in the page's language.

type Child = Node | string | null | undefined | false;

/** An element with attributes (`class`, `data-*`, `aria-*`, …) and children; text is set as text. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

/** The page's language, as its `<html lang>` says. */
export function pageLang(): string {
  return document.documentElement.lang || 'en';
}

export function formatNumber(value: number): string {
  return new Intl.NumberFormat(pageLang()).format(value);
}

/** A date and time, from ISO 8601 or milliseconds. */
export function formatTime(value: string | number): string {
  return new Intl.DateTimeFormat(pageLang(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(value));
}

/** "in 5 minutes", in the page's language. */
export function formatIn(seconds: number): string {
  const format = new Intl.RelativeTimeFormat(pageLang(), { numeric: 'auto' });
  if (seconds < 90) return format.format(Math.max(1, Math.round(seconds)), 'second');
  if (seconds < 90 * 60) return format.format(Math.round(seconds / 60), 'minute');
  return format.format(Math.round(seconds / 3600), 'hour');
}

/** The element with this `data-*` attribute inside `root`; a page whose markup lacks it is a bug, said at once. */
export function part<T extends HTMLElement = HTMLElement>(root: ParentNode, name: string): T {
  const found = root.querySelector<T>(`[data-${name}]`);
  if (!found) throw new Error(`dashboard: no [data-${name}] in this page`);
  return found;
}

/** Parsed JSON of a data attribute the build wrote. */
export function dataJson<T>(element: HTMLElement, name: string): T {
  return JSON.parse(element.dataset[name] ?? 'null') as T;
}
