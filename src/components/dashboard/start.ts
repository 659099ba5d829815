// The start page: the signed-in see the way to their apps instead of the sign-up form.
import { fetchSession } from './api.ts';
import type { DashboardTexts } from './client-texts.ts';
import { mountCopyButtons } from './code-blocks.ts';
import { part } from './dom.ts';
import { dashboardPage, markReady } from './page.ts';
import { fill } from './template.ts';

export async function mountStart(): Promise<void> {
  const page = dashboardPage<Pick<DashboardTexts, 'start'>>();
  mountCopyButtons(page.root, page.texts.common);
  const session = await fetchSession();
  if (session.ok && session.body.account !== null) {
    part(page.root, 'signed-out').hidden = true;
    part(page.root, 'signed-in-text').textContent = fill(page.texts.start.signedIn, { email: session.body.account.email });
    part(page.root, 'signed-in').hidden = false;
  }
  markReady(page);
}
