import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/config-error.ts';
import { readDevApiConfig, readServerConfig, refuseLocalModeOnNetwork } from '../../../src/config/server.ts';

describe('readServerConfig', () => {
  it('has defaults for everything', () => {
    expect(readServerConfig({})).toEqual({
      port: 4321,
      host: '127.0.0.1',
      trustProxy: { mode: 'none' },
      distDir: resolve('dist'),
      requestLog: 'on',
      allowLocalModeOnNetwork: false,
      jsonMaxDepth: undefined,
      apiBodyLimit: { requestsPerSecond: 20, burst: 40 },
      processes: availableParallelism(),
    });
  });

  it('reads each variable, empty meaning unset', () => {
    const config = readServerConfig({
      PORT: '0',
      HOST: '0.0.0.0',
      TRUST_PROXY: '2',
      SITE_DIR: '/srv/site',
      REQUEST_LOG: 'off',
      ALLOW_LOCAL_MODE_ON_NETWORK: 'yes',
      HOST_UNUSED: '',
    });
    expect(config).toEqual({
      port: 0,
      host: '0.0.0.0',
      trustProxy: { mode: 'hops', hops: 2 },
      distDir: '/srv/site',
      requestLog: 'off',
      allowLocalModeOnNetwork: true,
      jsonMaxDepth: undefined,
      apiBodyLimit: { requestsPerSecond: 20, burst: 40 },
      processes: availableParallelism(),
    });
    expect(readServerConfig({ TRUST_PROXY: 'cloudflare', PORT: '' }).trustProxy).toEqual({ mode: 'cloudflare' });
    const limits = readServerConfig({ JSON_MAX_DEPTH: '16', API_BODY_REQUESTS_PER_SECOND: '5', API_BODY_REQUESTS_BURST: '10' });
    expect(limits).toMatchObject({ jsonMaxDepth: 16, apiBodyLimit: { requestsPerSecond: 5, burst: 10 } });
    expect(readServerConfig({ SERVER_PROCESSES: '1' }).processes).toBe(1);
    expect(readServerConfig({ SERVER_PROCESSES: ' 8 ' }).processes).toBe(8);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '0' }, 'TRUST_PROXY'],
    [{ REQUEST_LOG: 'loud' }, 'REQUEST_LOG'],
    [{ ALLOW_LOCAL_MODE_ON_NETWORK: 'true' }, 'ALLOW_LOCAL_MODE_ON_NETWORK'],
    [{ JSON_MAX_DEPTH: '0' }, 'JSON_MAX_DEPTH'],
    [{ JSON_MAX_DEPTH: '100000' }, 'JSON_MAX_DEPTH'],
    [{ API_BODY_REQUESTS_PER_SECOND: '2.5' }, 'API_BODY_REQUESTS_PER_SECOND'],
    [{ API_BODY_REQUESTS_BURST: '-1' }, 'API_BODY_REQUESTS_BURST'],
    [{ SERVER_PROCESSES: '0' }, 'SERVER_PROCESSES'],
    [{ SERVER_PROCESSES: '1000' }, 'SERVER_PROCESSES'],
    [{ SERVER_PROCESSES: 'all' }, 'SERVER_PROCESSES'],
  ])('%o fails naming %s', (env, variable) => {
    expect(() => readServerConfig(env)).toThrow(ConfigError);
    expect(() => readServerConfig(env)).toThrow(new RegExp(`^Invalid server configuration:\\n  ${variable}: `));
  });
});

describe('refuseLocalModeOnNetwork', () => {
  const local = { local: true };
  it.each(['127.0.0.1', '127.1.2.3', '::1', 'localhost'])('lets local mode listen on loopback %s', (host) => {
    expect(() => refuseLocalModeOnNetwork(readServerConfig({ HOST: host }), local)).not.toThrow();
  });

  it.each(['0.0.0.0', '::', '192.168.1.20', 'crucible.lan'])('refuses local mode on %s, naming HOST and ALLOW_LOCAL_MODE_ON_NETWORK', (host) => {
    const config = readServerConfig({ HOST: host });
    expect(() => refuseLocalModeOnNetwork(config, local)).toThrow(ConfigError);
    expect(() => refuseLocalModeOnNetwork(config, local)).toThrow(
      new RegExp(`^HOST=${host.replaceAll('.', '\\.')} would serve local mode .* ALLOW_LOCAL_MODE_ON_NETWORK=yes`),
    );
  });

  it('lets the operator who says so, and production mode, listen anywhere', () => {
    expect(() => refuseLocalModeOnNetwork(readServerConfig({ HOST: '0.0.0.0', ALLOW_LOCAL_MODE_ON_NETWORK: 'yes' }), local)).not.toThrow();
    expect(() => refuseLocalModeOnNetwork(readServerConfig({ HOST: '0.0.0.0' }), { local: false })).not.toThrow();
  });
});

describe('readDevApiConfig', () => {
  it('reads TRUST_PROXY as the server does', () => {
    expect(readDevApiConfig({})).toEqual({ trustProxy: { mode: 'none' } });
    expect(readDevApiConfig({ TRUST_PROXY: '1', PORT: 'not read' })).toEqual({ trustProxy: { mode: 'hops', hops: 1 } });
    expect(() => readDevApiConfig({ TRUST_PROXY: 'yes' })).toThrow(/^Invalid server configuration:\n {2}TRUST_PROXY: /);
  });
});
