import type { Env } from './env.ts';
import { pageTurnstile } from './faucet.ts';
import { readNodeDomain } from './node.ts';
import { ConfigError } from './config-error.ts';
import { defaultPort, readListenAddress } from './server.ts';

// The build's inputs that come from the environment rather than from files. astro.config.mjs
// builds with them, the build records them in dist/_surface.json, and `npm start` rebuilds when
// the environment now gives other values (src/server/build-freshness.ts). A new input is one
// more line in buildEnvironment: its value is recorded and compared like the others.

/** Values are strings, or null for an input left unset; never a secret (dist/ is public). */
export function buildEnvironment(env: Env) {
  const turnstile = pageTurnstile(env);
  return {
    siteOrigin: siteOrigin(env),
    // The faucet pages' widget: the server checks tokens against the same site key and action.
    turnstileSiteKey: turnstile.siteKey,
    turnstileAction: turnstile.action,
    // `{node_url}` on the RPC and faucet pages: `https://<network>.<NODE_DOMAIN>` when set (docs/hosts-and-paths.md#node-url).
    nodeDomain: readNodeDomain(env),
  } satisfies Record<string, string | null>;
}

export type BuildEnvironment = ReturnType<typeof buildEnvironment>;

/**
 * The host of the default origin for each HOST: a loopback address is linked as itself, so links
 * name the address the server prints and answers on (and a session cookie set there stays valid);
 * a wildcard bind (every interface) has no address of its own and is linked as localhost; a name
 * or any other address as it is.
 */
function linkedHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * The absolute origin of canonical links, twins, llms.txt, the sitemap and search icons:
 * SITE_URL when set, else where `npm start` serves (HOST, PORT). PORT=0 picks a port only once
 * the server listens, so the build cannot know it and names the default port instead.
 */
function siteOrigin(env: Env): string {
  if (env.SITE_URL) return siteUrlOrigin(env.SITE_URL);
  const { port, host } = readListenAddress(env);
  return new URL(`http://${linkedHost(host)}:${port === 0 ? defaultPort : port}`).origin;
}

function siteUrlOrigin(value: string): string {
  const url = URL.parse(value);
  if (url && /^https?:$/.test(url.protocol)) return url.origin;
  throw new ConfigError(
    `Invalid build configuration:\n  SITE_URL: must be an absolute http(s) URL such as https://crucible.dev (got ${JSON.stringify(value)})\nSee .env.example.`,
  );
}
