import { domainToASCII } from 'node:url';

// An app's domain allow-list (docs/keys-and-limits.md#domain-allow-list): exact hosts, or `*.example.com` for its subdomains.
// Entries are stored as ASCII lowercase (internationalized names in punycode), which is how a
// browser's Origin header spells a host.

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const HOST = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);

/** `Example.COM` -> `example.com`, `*.Bücher.de` -> `*.xn--bcher-kva.de`; null when it is not a host or a wildcard. */
export function normalizeAllowedDomain(entry: string): string | null {
  const value = entry.trim();
  const wildcard = value.startsWith('*.');
  const name = wildcard ? value.slice(2) : value;
  // domainToASCII parses a URL's host: `example.com/path` would come back as `example.com`.
  if (!/^[\p{L}\p{M}\p{N}.-]+$/u.test(name)) return null;
  const host = domainToASCII(name);
  if (host.length === 0 || host.length > 253 || !HOST.test(host)) return null;
  return wildcard ? `*.${host}` : host;
}

/**
 * Whether a request's Origin host (no port) may use an app with these domains: any host when
 * the list is empty; `*.example.com` admits subdomains at any depth, not example.com itself.
 */
export function isHostAllowed(host: string, allowedDomains: readonly string[]): boolean {
  if (allowedDomains.length === 0) return true;
  const name = domainToASCII(host);
  return allowedDomains.some((entry) => {
    if (!entry.startsWith('*.')) return name === entry;
    const suffix = entry.slice(1);
    return name.endsWith(suffix) && name.length > suffix.length;
  });
}
