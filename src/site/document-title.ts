import type { Locale } from './locales.ts';
import { homeUrl } from './urls.ts';

/** The site's name, after every page's own title but a home page's. */
const siteName = 'Crucible';

/**
 * A page's `<title>`: a locale's home page is titled by its frontmatter alone (which names the
 * site), any other page by its title followed by the site's name.
 */
export function documentTitle(title: string, url: string, locale: Locale): string {
  return url === homeUrl(locale) ? title : `${title} · ${siteName}`;
}
