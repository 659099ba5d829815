// What of a URL may go to a log: its origin. RPC URLs carry API keys in their path or query,
// Redis and database URLs a password before the host. file: URLs stay whole: they are the
// stack frames of ES modules and name local paths, never a credential.

const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi;

/** The text with every URL in it cut to its origin (`[url]` where the URL does not parse). */
export function redactUrls(text: string): string {
  return text.replace(URL_PATTERN, originOf);
}

function originOf(url: string): string {
  if (/^file:/i.test(url)) return url;
  try {
    const { protocol, host } = new URL(url);
    return `${protocol}//${host}`;
  } catch {
    return '[url]';
  }
}
