import { describe, expect, it } from 'vitest';
import { resolveRequestPath } from '../../../src/http/request-path.ts';

describe('resolveRequestPath', () => {
  it('decodes ordinary paths and keeps the query', () => {
    expect(resolveRequestPath('/blog/hello?x=1')).toEqual({ ok: true, path: '/blog/hello', rawPath: '/blog/hello', query: '?x=1' });
    expect(resolveRequestPath('/ja/blog/%E3%81%93')).toEqual({ ok: true, path: '/ja/blog/こ', rawPath: '/ja/blog/%E3%81%93', query: '' });
    expect(resolveRequestPath('/a%20b.md')).toEqual({ ok: true, path: '/a b.md', rawPath: '/a%20b.md', query: '' });
  });

  it.each([
    '/../secret.txt',
    '/blog/../../secret.txt',
    '/./index.html',
    '/blog/..',
    '/%2e%2e/secret.txt',
    '/%2E%2E/secret.txt',
    '/.%2e/secret.txt',
    '/blog/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/..%2fsecret.txt',
    '/..%5csecret.txt',
    '/blog%2f..%2f..%2fsecret.txt',
    '/a\\..\\secret.txt',
    '/x%00.html',
  ])('refuses traversal %s', (target) => {
    expect(resolveRequestPath(target)).toMatchObject({ ok: false, reason: 'forbidden' });
  });

  it.each(['/%zz', '/%E3%81', 'blog', '//evil.example/x', '', 'http://host/x', undefined])('calls %s malformed', (target) => {
    expect(resolveRequestPath(target)).toMatchObject({ ok: false, reason: 'malformed' });
  });
});
