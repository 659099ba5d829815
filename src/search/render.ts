// DOM for search hits. Every piece of result text goes in as a text node (highlights are <mark>
// elements holding text nodes): the index is data, never markup.

import type { SearchHit, SearchHitGroup } from './engine.ts';
import type { TextPart } from './highlight.ts';

const svgNs = 'http://www.w3.org/2000/svg';

function icon(pathData: string, className: string): SVGSVGElement {
  const svg = document.createElementNS(svgNs, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', className);
  const path = document.createElementNS(svgNs, 'path');
  path.setAttribute('d', pathData);
  svg.append(path);
  return svg;
}

const pageIconPath = 'M6 2h8l5 5v15H6zM14 2v5h5M9 12h7M9 16h7';
const externalIconPath = 'M14 4h6v6M20 4l-9 9M18 14v6H4V6h6';

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  return node;
}

function highlighted(parts: readonly TextPart[], className: string): HTMLSpanElement {
  const span = element('span', className);
  for (const part of parts) {
    if (part.match) {
      const mark = document.createElement('mark');
      mark.textContent = part.text;
      span.append(mark);
    } else span.append(document.createTextNode(part.text));
  }
  return span;
}

/** Icons that failed once (missing, or refused by the page's CSP) are not retried per keystroke. */
const brokenIcons = new Set<string>();

function hitIcon(hit: SearchHit): Element {
  const src = hit.item.icon;
  if (!src || brokenIcons.has(src)) return icon(pageIconPath, 'search-hit-icon');
  const img = element('img', 'search-hit-icon');
  img.alt = '';
  img.width = img.height = 24;
  img.loading = 'lazy';
  img.decoding = 'async';
  img.referrerPolicy = 'no-referrer';
  img.addEventListener(
    'error',
    () => {
      brokenIcons.add(src);
      img.replaceWith(icon(pageIconPath, 'search-hit-icon'));
    },
    { once: true },
  );
  img.src = src;
  return img;
}

function option(hit: SearchHit, id: string, externalLabel: string): HTMLElement {
  const row = element('div', 'search-hit');
  row.id = id;
  row.setAttribute('role', 'option');
  row.setAttribute('aria-selected', 'false');

  const link = element('a', 'search-hit-link');
  link.href = hit.item.url;
  link.tabIndex = -1;
  const text = element('span', 'search-hit-text');
  text.append(highlighted(hit.title, 'search-hit-title'));
  if (hit.description.length) text.append(document.createTextNode(' '), highlighted(hit.description, 'search-hit-description'));
  link.append(hitIcon(hit), text);
  if (hit.item.external) {
    link.target = '_blank';
    link.rel = 'noopener';
    row.dataset.external = '';
    const note = element('span', 'search-sr-only');
    note.textContent = ` (${externalLabel})`;
    link.append(icon(externalIconPath, 'search-hit-external'), note);
  }
  row.append(link);
  return row;
}

/** Replaces the listbox content with grouped hits; returns the options in display order. */
export function renderHits(listbox: HTMLElement, groups: readonly SearchHitGroup[], externalLabel: string): HTMLElement[] {
  const options: HTMLElement[] = [];
  const nodes = groups.map((group, g) => {
    const box = element('div', 'search-group');
    box.setAttribute('role', 'group');
    const label = element('div', 'search-group-label');
    label.id = `${listbox.id}-group-${g}`;
    label.setAttribute('aria-hidden', 'true');
    label.textContent = group.label;
    box.setAttribute('aria-labelledby', label.id);
    box.append(label);
    for (const hit of group.hits) {
      const row = option(hit, `${listbox.id}-option-${options.length}`, externalLabel);
      options.push(row);
      box.append(row);
    }
    return box;
  });
  listbox.replaceChildren(...nodes);
  return options;
}
