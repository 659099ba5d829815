import { describe, expect, it } from 'vitest';
import { cameForSignIn, nextAfterSignIn, signInUrlFor } from '../../../src/components/dashboard/next-url.ts';
import { dashboardUrls } from '../../../src/components/dashboard/paths.ts';
import { dashboardAppUrl, dashboardPages, dashboardUrl } from '../../../src/site/urls.ts';

// Sign-in sends a person back where they were headed, but only to a page of the dashboard: `next`
// comes from the address bar, and following anything else would be an open redirect.

describe('the dashboard’s URLs', () => {
  it('are directories under /dashboard/, prefixed by the locale but for English; one app by its id in the query', () => {
    expect(dashboardUrl('en')).toBe('/dashboard/');
    expect(dashboardUrl('ja', 'sign-in')).toBe('/ja/dashboard/sign-in/');
    expect(dashboardUrl('pt-BR', 'apps')).toBe('/pt-BR/dashboard/apps/');
    expect(dashboardAppUrl('zh-Hant', 'app_0123456789abcdef')).toBe('/zh-Hant/dashboard/app/?id=app_0123456789abcdef');
    expect(dashboardPages.map((page) => dashboardUrl('ko', page))).toEqual([
      '/ko/dashboard/',
      '/ko/dashboard/sign-up/',
      '/ko/dashboard/sign-in/',
      '/ko/dashboard/apps/',
      '/ko/dashboard/app/',
      '/ko/dashboard/webhooks/',
      '/ko/dashboard/account/',
    ]);
  });
});

describe('after sign-in', () => {
  it('goes back to the dashboard page that sent the person to sign in, query and all', () => {
    const here = '/ja/dashboard/app/?id=app_0123456789abcdef&created=1';
    const signIn = signInUrlFor(dashboardUrls('ja'), here);
    expect(signIn.startsWith('/ja/dashboard/sign-in/?next=')).toBe(true);
    const search = new URL(signIn, 'https://site.example').search;
    expect(cameForSignIn(search)).toBe(true);
    expect(nextAfterSignIn(search, dashboardUrls('ja'))).toBe(here);
  });

  it('goes to the apps otherwise', () => {
    expect(cameForSignIn('')).toBe(false);
    expect(nextAfterSignIn('', dashboardUrls('en'))).toBe('/dashboard/apps/');
  });

  it('never leaves the dashboard: other sites, protocol-relative and backslashed paths, scripts and other pages go to the apps', () => {
    for (const next of [
      'https://evil.example/dashboard/',
      '//evil.example/dashboard/',
      '/\\evil.example/dashboard/',
      'javascript:alert(1)',
      '/blog/',
      '/dashboard/../blog/',
      '/ja/dashboard/apps/',
      'dashboard/apps/',
    ]) {
      expect(nextAfterSignIn(`?${new URLSearchParams({ next })}`, dashboardUrls('en')), next).toBe('/dashboard/apps/');
    }
  });
});
