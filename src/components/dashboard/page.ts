// What every dashboard page's script starts with: its texts and URLs from the build, who is signed
// in, and the way back to sign-in when the session is missing or has ended.
import { api, fetchSession, type ApiResult } from './api.ts';
import type { DashboardTexts } from './client-texts.ts';
import { dataJson, part } from './dom.ts';
import { failureText } from './form.ts';
import { nextAfterSignIn, signInUrlFor, type DashboardUrls } from './next-url.ts';
import { fill } from './template.ts';
import type { Account } from './types.ts';

export interface DashboardPage<Texts> {
  root: HTMLElement;
  texts: Texts & Pick<DashboardTexts, 'common'>;
  urls: DashboardUrls;
}

/** The page's root (`[data-dashboard]`) with what the build put on it. */
export function dashboardPage<Texts>(): DashboardPage<Texts> {
  const root = part(document, 'dashboard');
  return { root, texts: dataJson(root, 'texts'), urls: dataJson(root, 'urls') };
}

/** Leaves for sign-in, which sends the person back here afterwards. */
function goToSignIn(urls: DashboardUrls): Promise<never> {
  location.replace(signInUrlFor(urls, `${location.pathname}${location.search}`));
  return new Promise<never>(() => {});
}

/** The account signed in; a signed-out visitor is sent to sign in. A page that cannot learn either says why. */
export async function requireAccount(page: DashboardPage<unknown>): Promise<Account> {
  const session = await fetchSession();
  if (!session.ok) {
    showPageError(page, failureText(session, page.texts.common));
    return new Promise<never>(() => {});
  }
  if (session.body.account === null) return goToSignIn(page.urls);
  showAccount(page, session.body.account);
  return session.body.account;
}

/** A call of a signed-in page: a 401 means the session ended (expired, or signed out elsewhere), so it is off to sign in. */
export async function call<T>(page: DashboardPage<unknown>, method: string, path: string, body?: unknown): Promise<ApiResult<T>> {
  const result = await api<T>(method, path, body);
  if (!result.ok && result.status === 401) return goToSignIn(page.urls);
  return result;
}

/** GETs of a signed-in page, all at once: their bodies, or null once the first failure is shown as the page's error. */
export async function loadAll<const Bodies extends unknown[]>(page: DashboardPage<unknown>, ...paths: { [K in keyof Bodies]: string }): Promise<Bodies | null> {
  const results = await Promise.all(paths.map((path) => call<unknown>(page, 'GET', path)));
  for (const result of results) {
    if (!result.ok) {
      showPageError(page, failureText(result, page.texts.common));
      return null;
    }
  }
  return results.map((result) => (result.ok ? result.body : null)) as Bodies;
}

/** Signs out and goes to the dashboard's start. */
export async function signOut(page: DashboardPage<unknown>, path = '/api/dashboard/sign-out'): Promise<void> {
  const result = await api<null>('POST', path);
  if (!result.ok && result.status !== 401) return showPageError(page, failureText(result, page.texts.common));
  location.assign(page.urls.start);
}

/** For the sign-in and sign-up pages: where to go once signed in. */
export function afterSignIn(page: DashboardPage<unknown>): void {
  location.assign(nextAfterSignIn(location.search, page.urls));
}

/**
 * Says that the page's script has done its part: every control it handles works from now on. The
 * root gets `data-ready`, which tests wait for before they act on the page.
 */
export function markReady(page: DashboardPage<unknown>): void {
  page.root.dataset.ready = 'true';
}

/** A problem that stops the whole page, in its status line. */
export function showPageError(page: DashboardPage<unknown>, message: string): void {
  const status = part(page.root, 'page-status');
  status.textContent = message;
  status.dataset.state = 'error';
}

/** The dashboard's navigation, once the account is known: who is signed in, and sign-out. */
function showAccount(page: DashboardPage<unknown>, account: Account): void {
  const nav = page.root.querySelector<HTMLElement>('[data-dashboard-nav]');
  if (!nav) return;
  part(nav, 'signed-in-as').textContent = fill(page.texts.common.signedInAs, { email: account.email });
  part<HTMLButtonElement>(nav, 'sign-out').addEventListener('click', () => void signOut(page));
  part(nav, 'account').hidden = false;
}
