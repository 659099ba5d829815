import { localeParam } from '../../site/faucet-pages.ts';
import { locales, type Locale } from '../../site/locales.ts';
import { dashboardUrl } from '../../site/urls.ts';
import type { DashboardUrls } from './next-url.ts';

/** Every dashboard page is built once per locale (`[...locale]`: none for English). */
export function dashboardPaths(): Array<{ params: { locale: string | undefined }; props: { locale: Locale } }> {
  return locales.map((locale) => ({ params: { locale: localeParam(locale) }, props: { locale } }));
}

/** The dashboard's pages in one locale, as the pages' scripts get them. */
export function dashboardUrls(locale: Locale): DashboardUrls {
  return {
    start: dashboardUrl(locale),
    signIn: dashboardUrl(locale, 'sign-in'),
    signUp: dashboardUrl(locale, 'sign-up'),
    apps: dashboardUrl(locale, 'apps'),
    app: dashboardUrl(locale, 'app'),
    webhooks: dashboardUrl(locale, 'webhooks'),
    account: dashboardUrl(locale, 'account'),
  };
}
