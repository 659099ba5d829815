import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createServerLogger } from '../../../src/server/log.ts';
import { redactKeyPaths, redactUrls } from '../../../src/log/redact.ts';

describe('redactUrls', () => {
  it.each([
    ['https://user:pass@host.example/path/KEY', 'https://host.example'],
    ['redis://:secret@cache.example:6379/0', 'redis://cache.example:6379'],
    ['https://rpc.example/v2/SECRETKEY?apikey=SECRET', 'https://rpc.example'],
    ['wss://eth.example/ws/SECRETKEY', 'wss://eth.example'],
    ['postgres://app:secret@db.example/app', 'postgres://db.example'],
  ])('cuts %s to its origin', (url, origin) => {
    expect(redactUrls(`failed at ${url} (retrying)`)).toBe(`failed at ${origin} (retrying)`);
  });

  it('keeps file: URLs, the stack frames of ES modules', () => {
    const frame = '    at answer (file:///srv/crucible/src/server/server.ts:49:31)';
    expect(redactUrls(frame)).toBe(frame);
  });

  it('hides a URL that does not parse whole', () => {
    expect(redactUrls('at https://user:secret@[bad/KEY')).toBe('at [url]');
  });
});

describe('redactKeyPaths', () => {
  it.each([
    // Each prefix, in the /node/<network> form, on a network's own host, and with trailing segments.
    ['/node/ethereum-sepolia/v2/KEY', '/node/ethereum-sepolia/v2/<key>'],
    ['/node/ethereum-sepolia/v2/KEY/', '/node/ethereum-sepolia/v2/<key>/'],
    ['/node/ethereum-sepolia/v2/KEY/getNFTs', '/node/ethereum-sepolia/v2/<key>/getNFTs'],
    ['/node/base-sepolia/nft/v3/KEY/getNFTsForOwner/extra/segments', '/node/base-sepolia/nft/v3/<key>/getNFTsForOwner/extra/segments'],
    ['/v2/KEY/no-such-endpoint', '/v2/<key>/no-such-endpoint'],
    ['/nft/v3/KEY', '/nft/v3/<key>'],
    ['/prices/v1/KEY/tokens/by-symbol', '/prices/v1/<key>/tokens/by-symbol'],
    ['/data/v1/KEY/assets/tokens/by-address', '/data/v1/<key>/assets/tokens/by-address'],
    ['/DATA/V1/KEY/transactions/history/by-address', '/DATA/V1/<key>/transactions/history/by-address'],
    // Percent-encoded prefixes and keys, any case.
    ['/node/x/%76%32/KEY/y', '/node/x/%76%32/<key>/y'],
    ['/node/x/V2/KEY', '/node/x/V2/<key>'],
    ['/%70rices/%76%31/%4B%45%59', '/%70rices/%76%31/<key>'],
    ['/n%66t/v3/KEY', '/n%66t/v3/<key>'],
    ['/v2/%zzKEY/x', '/v2/<key>/x'],
    // Doubled slashes, encoded and back slashes: whatever a server might read as one separator.
    ['//v2//KEY//x', '//v2//<key>//x'],
    ['/nft//v3///KEY', '/nft//v3///<key>'],
    ['/node/x/v2%2FKEY', '/node/x/v2%2F<key>'],
    ['/node/x/v2%2fKEY%2Fy', '/node/x/v2%2f<key>%2Fy'],
    ['\\v2\\KEY', '\\v2\\<key>'],
    ['/prices/v1%5CKEY', '/prices/v1%5C<key>'],
    // A network named like a prefix: every segment after one is redacted.
    ['/node/v2/v2/KEY', '/node/v2/<key>/<key>'],
    // Absolute URLs and paths inside a sentence.
    ['http://127.0.0.1:4321/v2/KEY/x', 'http://127.0.0.1:4321/v2/<key>/x'],
    ['GET /node/x/v2/KEY failed: "/prices/v1/KEY2"', 'GET /node/x/v2/<key> failed: "/prices/v1/<key>"'],
  ])('%s -> %s', (path, logged) => {
    expect(redactKeyPaths(path)).toBe(logged);
  });

  it('keeps paths that carry no key as they are', () => {
    for (const path of [
      '/',
      '/rpc/methods/',
      '/node/ethereum-sepolia/v2',
      '/node/ethereum-sepolia/v2/',
      '/blog/v2-launch/',
      '/api/v1/KEY',
      '/node/x/openrpc.json',
      '/a%20b/',
    ]) {
      expect(redactKeyPaths(path)).toBe(path);
    }
  });

  it('ends a path at whitespace, quotes, ? and #: what follows starts afresh', () => {
    expect(redactKeyPaths('/v2?q=1/KEY')).toBe('/v2?q=1/KEY');
    expect(redactKeyPaths('v2 KEY')).toBe('v2 KEY');
  });
});

describe('server request log', () => {
  it('replaces the app key of a path with <key>', () => {
    const lines: string[] = [];
    const stdout = new Writable({
      write: (chunk, _encoding, done) => {
        lines.push(String(chunk));
        done();
      },
    });
    createServerLogger({ requests: true, stdout }).request?.({ method: 'GET', path: '/node/x/v2/SECRET/nope', status: 404, durationMs: 1, requestId: 'r' });
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'request', path: '/node/x/v2/<key>/nope' });
  });
});

describe('server error log', () => {
  const errorLine = (fields: Record<string, unknown>) => {
    const lines: string[] = [];
    const stderr = new Writable({
      write: (chunk, _encoding, done) => {
        lines.push(String(chunk));
        done();
      },
    });
    createServerLogger({ requests: false, stderr }).error('failed at https://u:SECRET@a.example/x', fields);
    return lines.join('');
  };

  it('cuts URLs in the message and in every string field, however deep', () => {
    const line = errorLine({ error: 'Error: at redis://:SECRET@cache.example:6379', nested: { urls: ['https://rpc.example/v2/SECRET'] }, count: 3 });
    expect(line).not.toContain('SECRET');
    expect(JSON.parse(line)).toMatchObject({
      msg: 'failed at https://a.example',
      error: 'Error: at redis://cache.example:6379',
      nested: { urls: ['https://rpc.example'] },
      count: 3,
    });
  });

  it('replaces the app key of every path in it, the request path included', () => {
    const line = errorLine({ path: '/nft/v3/SECRET/x', error: 'Error: no route for /node/x/%76%32/SECRET/y' });
    expect(line).not.toContain('SECRET');
    expect(JSON.parse(line)).toMatchObject({ path: '/nft/v3/<key>/x', error: 'Error: no route for /node/x/%76%32/<key>/y' });
  });
});
