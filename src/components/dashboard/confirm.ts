// Confirmation before what cannot be undone (rotate, delete, revoke, sign out everywhere): a modal
// <dialog>, so focus stays in it, Escape cancels, and focus returns to the button that opened it.
import { el } from './dom.ts';

export interface Confirmation {
  title: string;
  body: string;
  confirm: string;
  cancel: string;
}

let counter = 0;

export function confirmAction({ title, body, confirm, cancel }: Confirmation): Promise<boolean> {
  const id = `confirm-${++counter}`;
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const cancelButton = el('button', { type: 'button', class: 'secondary', 'data-confirm-cancel': true }, cancel);
  const confirmButton = el('button', { type: 'button', class: 'danger', 'data-confirm-ok': true }, confirm);
  const dialog = el(
    'dialog',
    { class: 'confirm', 'aria-labelledby': `${id}-title`, 'aria-describedby': `${id}-body` },
    el('h2', { id: `${id}-title` }, title),
    el('p', { id: `${id}-body` }, body),
    el('div', { class: 'actions' }, cancelButton, confirmButton),
  );
  document.body.append(dialog);
  return new Promise((resolve) => {
    let confirmed = false;
    cancelButton.addEventListener('click', () => dialog.close());
    confirmButton.addEventListener('click', () => {
      confirmed = true;
      dialog.close();
    });
    dialog.addEventListener('close', () => {
      dialog.remove();
      opener?.focus();
      resolve(confirmed);
    });
    dialog.showModal();
    // The safe choice has focus: Enter right away cancels.
    cancelButton.focus();
  });
}
