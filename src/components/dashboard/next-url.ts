// Where sign-in sends a person back to (pure: unit-tested). Only a page of the dashboard itself is
// followed: `next` comes from the address bar, so anything else (another site, `//host`, a
// `javascript:` URL) would make the sign-in form an open redirect.

/** The dashboard's page URLs in the page's locale, from the build (src/site/urls.ts). */
export interface DashboardUrls {
  start: string;
  signIn: string;
  signUp: string;
  apps: string;
  app: string;
  webhooks: string;
  account: string;
}

const PARAM = 'next';

/** The sign-in page, asked to come back to `here` (a path with its query) afterwards. */
export function signInUrlFor(urls: DashboardUrls, here: string): string {
  return `${urls.signIn}?${new URLSearchParams({ [PARAM]: here })}`;
}

/** Where to go after signing in: `next` when it is a page under the dashboard's start, else the apps. */
export function nextAfterSignIn(search: string, urls: DashboardUrls): string {
  const next = new URLSearchParams(search).get(PARAM);
  if (next === null || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return urls.apps;
  const url = new URL(next, 'https://dashboard.invalid');
  if (url.origin !== 'https://dashboard.invalid' || !url.pathname.startsWith(urls.start)) return urls.apps;
  return `${url.pathname}${url.search}`;
}

/** Whether the page was opened by a redirect to sign in. */
export function cameForSignIn(search: string): boolean {
  return new URLSearchParams(search).has(PARAM);
}
