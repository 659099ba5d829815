import { describe, expect, it } from 'vitest';
import { buildEnvironment } from '../../../src/config/build-environment.ts';

// The site origin the build writes into canonical links and search icons: SITE_URL, else where
// `npm start` will serve.

const siteOrigin = (env: Record<string, string>) => buildEnvironment(env).siteOrigin;

describe('buildEnvironment', () => {
  it('names where npm start serves by default: the address it listens on', () => {
    expect(siteOrigin({})).toBe('http://127.0.0.1:4321');
  });

  it('follows PORT', () => {
    expect(siteOrigin({ PORT: '8080' })).toBe('http://127.0.0.1:8080');
    expect(siteOrigin({ PORT: '80' })).toBe('http://127.0.0.1');
  });

  it('links a loopback HOST as itself, the wildcard binds as localhost, any other HOST as it is', () => {
    expect(siteOrigin({ HOST: '127.0.0.1', PORT: '8080' })).toBe('http://127.0.0.1:8080');
    expect(siteOrigin({ HOST: '::1', PORT: '8080' })).toBe('http://[::1]:8080');
    for (const host of ['0.0.0.0', '::']) expect(siteOrigin({ HOST: host, PORT: '8080' })).toBe('http://localhost:8080');
    expect(siteOrigin({ HOST: 'localhost' })).toBe('http://localhost:4321');
    expect(siteOrigin({ HOST: 'crucible.internal' })).toBe('http://crucible.internal:4321');
    expect(siteOrigin({ HOST: '192.168.1.20' })).toBe('http://192.168.1.20:4321');
    expect(siteOrigin({ HOST: 'fd00::20' })).toBe('http://[fd00::20]:4321');
  });

  it('names the default port for PORT=0, whose port is known only once listening', () => {
    expect(siteOrigin({ PORT: '0' })).toBe('http://127.0.0.1:4321');
  });

  it('takes SITE_URL over HOST and PORT, as an origin', () => {
    expect(siteOrigin({ SITE_URL: 'https://crucible.dev/', PORT: '8080' })).toBe('https://crucible.dev');
    expect(siteOrigin({ SITE_URL: '', PORT: '8080' })).toBe('http://127.0.0.1:8080');
  });

  it('refuses a bad SITE_URL or PORT, naming the variable', () => {
    expect(() => siteOrigin({ SITE_URL: 'crucible.dev' })).toThrow(/SITE_URL: must be an absolute http\(s\) URL/);
    expect(() => siteOrigin({ PORT: 'eighty' })).toThrow(/PORT: must be a port number/);
  });
});

describe('buildEnvironment: the faucet pages’ Turnstile widget', () => {
  it('records the site key and action the pages are built with, null for the development check', () => {
    expect(buildEnvironment({})).toMatchObject({ turnstileSiteKey: null, turnstileAction: null });
    expect(buildEnvironment({ TURNSTILE_SITE_KEY: '0x4AAAAAAAsite', TURNSTILE_ACTION: 'faucet-send' })).toMatchObject({
      turnstileSiteKey: '0x4AAAAAAAsite',
      turnstileAction: 'faucet-send',
    });
  });
});

describe('buildEnvironment: {node_url} on the pages', () => {
  it('records NODE_DOMAIN as the gateway reads it, null when unset', () => {
    expect(buildEnvironment({}).nodeDomain).toBeNull();
    expect(buildEnvironment({ NODE_DOMAIN: '' }).nodeDomain).toBeNull();
    expect(buildEnvironment({ NODE_DOMAIN: 'Node.Example.com' }).nodeDomain).toBe('node.example.com');
    expect(() => buildEnvironment({ NODE_DOMAIN: 'https://node.example.com' })).toThrow(/NODE_DOMAIN must be a domain name/);
  });
});
