// The search dialog's behaviour (markup and labels: src/components/SearchDialog.astro).
// The index and flexsearch load on first use (or when the pointer or focus reaches the button),
// once per page; a failed load is retried on the next open.

import { fetchSearchIndex } from './data.ts';
import type { SearchEngine } from './engine.ts';
import { moveActive, opensSearch, shortcutLabel } from './keys.ts';
import { renderHits } from './render.ts';

function required<T extends Element>(root: Element, selector: string): T {
  const found = root.querySelector<T>(selector);
  if (!found) throw new Error(`search dialog markup lacks ${selector}`);
  return found;
}

function isTypingTarget(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || target.matches('input, textarea, select'));
}

export function initSearchDialog(root: HTMLElement): void {
  const { indexUrl = '', emptyText = '', loadingText = '', errorText = '', externalText = '' } = root.dataset;
  const button = required<HTMLButtonElement>(root, '[data-search-open]');
  const dialog = required<HTMLDialogElement>(root, 'dialog');
  const input = required<HTMLInputElement>(dialog, '[role="combobox"]');
  const listbox = required<HTMLElement>(dialog, '[role="listbox"]');
  const status = required<HTMLElement>(dialog, '[role="status"]');
  const closeButton = required<HTMLButtonElement>(dialog, '[data-search-close]');

  let engine: SearchEngine | null = null;
  let loading: Promise<void> | null = null;
  let failed = false;
  let options: HTMLElement[] = [];
  let active = -1;
  let returnFocusTo: Element | null = null;

  function load(): void {
    if (engine || loading) return;
    failed = false;
    // The engine usually arrives before the index; its one-time set-up runs while the index downloads.
    const engineModule = import('./engine.ts').then((module) => {
      module.prepareTextAnalysis();
      return module;
    });
    loading = Promise.all([engineModule, fetchSearchIndex(indexUrl)])
      .then(([{ createSearchEngine }, groups]) => {
        engine = createSearchEngine(groups);
      })
      .catch((error: unknown) => {
        console.error('search index failed to load', error);
        failed = true;
      })
      .finally(() => {
        loading = null;
        if (dialog.open) update();
      });
  }

  function setActive(index: number, scroll: boolean): void {
    options[active]?.setAttribute('aria-selected', 'false');
    active = index;
    const option = options[active];
    if (option) {
      option.setAttribute('aria-selected', 'true');
      input.setAttribute('aria-activedescendant', option.id);
      if (scroll) option.scrollIntoView({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
  }

  function update(): void {
    const query = input.value.trim();
    const groups = query && engine ? engine.search(query) : [];
    options = renderHits(listbox, groups, externalText);
    active = -1;
    input.removeAttribute('aria-activedescendant');
    input.setAttribute('aria-expanded', String(options.length > 0));
    listbox.hidden = options.length === 0;
    if (!query) status.textContent = '';
    else if (engine) status.textContent = options.length ? '' : `${emptyText} “${query}”`;
    else status.textContent = failed ? errorText : loadingText;
  }

  function open(): void {
    if (!dialog.open) {
      returnFocusTo = document.activeElement;
      dialog.showModal();
      load();
      update();
    }
    input.focus();
    input.select();
  }

  function openActive(): void {
    const link = options[active === -1 ? 0 : active]?.querySelector('a');
    if (!link) return;
    link.click();
    if (link.target === '_blank') dialog.close();
  }

  required(button, '[data-search-shortcut]').textContent = shortcutLabel(navigator.platform);
  button.addEventListener('click', open);
  button.addEventListener('pointerenter', load);
  button.addEventListener('focus', load);
  closeButton.addEventListener('click', () => dialog.close());

  document.addEventListener('keydown', (event) => {
    if (!event.defaultPrevented && opensSearch(event, isTypingTarget(event.target))) {
      event.preventDefault();
      open();
    }
  });

  input.addEventListener('input', update);
  input.addEventListener('keydown', (event) => {
    if (event.isComposing) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setActive(moveActive(active, options.length, event.key === 'ArrowDown' ? 1 : -1), true);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      openActive();
    }
  });

  listbox.addEventListener('pointermove', (event) => {
    const option = (event.target as Element).closest('[role="option"]');
    const index = option ? options.indexOf(option as HTMLElement) : -1;
    if (index !== -1 && index !== active) setActive(index, false);
  });
  listbox.addEventListener('click', (event) => {
    const link = (event.target as Element).closest('a');
    if (link?.target === '_blank') dialog.close();
  });

  // A click on the dialog element itself is a click on the backdrop: the panel fills the box.
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close();
  });
  dialog.addEventListener('close', () => {
    if (returnFocusTo instanceof HTMLElement && returnFocusTo.isConnected && returnFocusTo !== document.body) returnFocusTo.focus();
    returnFocusTo = null;
  });
}
