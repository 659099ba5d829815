import { defaultLocale, locales, type Locale } from './locales.ts';
import type { NetworkRecord } from './records.ts';

/** `[...locale]` route param: undefined for English (unprefixed URLs). */
export function localeParam(locale: Locale): string | undefined {
  return locale === defaultLocale ? undefined : locale;
}

/** Every faucet page: the index and one page per network, in each locale. */
export function faucetPagePaths(networks: NetworkRecord[]) {
  return locales.flatMap((locale) =>
    networks.map((network) => ({ params: { locale: localeParam(locale), faucetId: network.id }, props: { locale, network } })),
  );
}
