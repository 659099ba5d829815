// Copy buttons of the ready-to-paste examples (CodeBlock.astro).
import { copyText } from './copy.ts';
import type { DashboardTexts } from './client-texts.ts';

export function mountCopyButtons(root: HTMLElement, common: DashboardTexts['common']): void {
  root.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button[data-copy]');
    if (!button) return;
    const code = document.getElementById(button.dataset.copy!);
    const status = button.parentElement!.querySelector<HTMLElement>('[data-copy-status]')!;
    void copyText(async () => code?.textContent ?? null, status, common);
  });
}
