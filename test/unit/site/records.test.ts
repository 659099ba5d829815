import { describe, expect, it } from 'vitest';
import { ContentError, pageRecordFromSource, placeOfContentPath } from '../../../src/site/records.ts';

const valid = { title: 'Hello', description: 'A page about hello.' };

describe('placeOfContentPath', () => {
  it('reads locale, section, slug and format from the path', () => {
    expect(placeOfContentPath('ja/blog/hello-world.mdx')).toEqual({ locale: 'ja', section: 'blog', slug: 'hello-world', format: 'mdx' });
    expect(placeOfContentPath('pt-BR/index.md')).toEqual({ locale: 'pt-BR', section: null, slug: '', format: 'md' });
  });

  it('explains paths that are not pages', () => {
    expect(placeOfContentPath('fr/blog/x.md')).toBe('unknown locale "fr"');
    expect(placeOfContentPath('en/news/x.md')).toBe('unknown section "news"');
    expect(placeOfContentPath('en/blog/Hello_World.md')).toMatch(/slug "Hello_World"/);
    expect(placeOfContentPath('en/about.md')).toMatch(/only index\.md/);
  });
});

describe('pageRecordFromSource', () => {
  it('derives URLs from the one URL module', () => {
    const en = pageRecordFromSource({ relativePath: 'en/blog/hello.md', data: valid, body: 'Hi' })!;
    expect(en.url).toBe('/blog/hello');
    expect(en.twinUrl).toBe('/blog/hello.md');
    expect(en.translationKey).toBe('blog/hello');
    const ja = pageRecordFromSource({ relativePath: 'ja/blog/hello.md', data: valid, body: 'Hi' })!;
    expect(ja.url).toBe('/ja/blog/hello');
    expect(ja.translationKey).toBe(en.translationKey);
    const home = pageRecordFromSource({ relativePath: 'ko/index.md', data: valid, body: '' })!;
    expect([home.url, home.twinUrl, home.section]).toEqual(['/ko/', '/ko/index.md', null]);
  });

  it('names the file, the field and the reason for bad frontmatter', () => {
    const attempt = () => pageRecordFromSource({ relativePath: 'en/blog/bad.md', data: { title: 'T', description: 'D', date: 'not a date' }, body: '' });
    expect(attempt).toThrow(ContentError);
    try {
      attempt();
    } catch (error) {
      const issue = (error as ContentError).issues[0]!;
      expect(issue.file).toBe('content/en/blog/bad.md');
      expect(issue.field).toBe('date');
      expect((error as Error).message).toContain('content/en/blog/bad.md: field "date"');
    }
  });

  it('rejects unknown fields and multi-line descriptions', () => {
    expect(() => pageRecordFromSource({ relativePath: 'en/blog/a.md', data: { ...valid, titel: 'typo' }, body: '' })).toThrow(/titel/);
    expect(() => pageRecordFromSource({ relativePath: 'en/blog/a.md', data: { ...valid, description: 'one\ntwo' }, body: '' })).toThrow(/single line/);
    expect(() => pageRecordFromSource({ relativePath: 'en/blog/a.md', data: { description: 'd' }, body: '' })).toThrow(/field "title"/);
  });

  it('leaves drafts out', () => {
    expect(pageRecordFromSource({ relativePath: 'en/blog/a.md', data: { ...valid, draft: true }, body: '' })).toBeNull();
  });
});
