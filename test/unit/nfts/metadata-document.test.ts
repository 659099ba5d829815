import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hostedMetadataDocuments } from '../../../src/chain/world/metadata.ts';
import { MAX_DEPTH, parseMetadataDocument, type MetadataDocument } from '../../../src/nfts/metadata-document.ts';

const SITE = 'http://localhost:4321/world/nft/';
const bytes = (text: string) => new TextEncoder().encode(text);

function parsed(text: string, base = 'https://meta.example/tokens/1.json'): MetadataDocument {
  const result = parseMetadataDocument(bytes(text), base);
  if (!result.ok) throw new Error(result.error.reason);
  return result;
}
const failure = (input: Uint8Array | string) => {
  const result = parseMetadataDocument(typeof input === 'string' ? bytes(input) : input, 'https://meta.example/1.json');
  return result.ok ? 'parsed' : `${result.error.code}: ${result.error.reason}`;
};

describe('parseMetadataDocument on the local world’s hosted documents', () => {
  it.each(hostedMetadataDocuments())('%s: fields picked, raw kept, image resolved to a file served beside it', (path) => {
    const text = readFileSync(`public/world/nft/${path}`, 'utf8');
    const document = parsed(text, `${SITE}${path}`);
    const raw = JSON.parse(text) as Record<string, unknown>;
    expect(document.raw).toEqual(raw);
    expect(document.name).toBe(raw.name);
    expect(document.description).toBe(raw.description);
    const image = new URL(document.image!);
    expect(image.href).toBe(new URL(raw.image as string, `${SITE}${path}`).href);
    expect(image.pathname.startsWith('/world/nft/')).toBe(true);
    expect(existsSync(`public${image.pathname}`)).toBe(true);
    expect(document.attributes).toEqual(raw.attributes ?? null);
  });

  it('reads a relic’s attributes', () => {
    const document = parsed(readFileSync('public/world/nft/relics/1.json', 'utf8'), `${SITE}relics/1.json`);
    expect(document.image).toBe(`${SITE}relics/1.svg`);
    expect(document.attributes).toContainEqual({ trait_type: 'Storage', value: 'hosted' });
  });
});

describe('parseMetadataDocument', () => {
  it('keeps absolute URIs exactly as written and resolves relative ones against the base', () => {
    const document = parsed(
      JSON.stringify({ image: 'ipfs://QmImage/1.png', animation_url: '../media/1.mp4', image_url: 'https://elsewhere.example/x.png' }),
      'ipfs://QmDocs/meta/1.json',
    );
    expect(document.image).toBe('ipfs://QmImage/1.png');
    expect(document.animationUrl).toBe('ipfs://QmDocs/media/1.mp4');
    expect(parsed(JSON.stringify({ image: 'img/1.png' }), 'ipfs://QmDocs/meta/1.json').image).toBe('ipfs://QmDocs/meta/img/1.png');
    const svg = "data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg'>\n<rect fill='#f00'/></svg>";
    expect(parsed(JSON.stringify({ image: svg })).image).toBe(svg);
  });

  it('takes image, else image_url, else image_data made a data: URI', () => {
    expect(parsed(JSON.stringify({ image: ' ', image_url: 'https://a.example/u.png', image_data: '<svg/>' })).image).toBe('https://a.example/u.png');
    const markup = '<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>';
    const image = parsed(JSON.stringify({ image_data: markup })).image!;
    expect(image.startsWith('data:image/svg+xml;base64,')).toBe(true);
    expect(Buffer.from(image.split(',')[1]!, 'base64').toString('utf8')).toBe(markup);
    expect(parsed(JSON.stringify({ image_data: 'not markup' })).image).toBeNull();
    expect(parsed(JSON.stringify({ image: 42 })).image).toBeNull();
  });

  it('leaves out a relative image of a document with no hierarchy (a data: URI)', () => {
    expect(parsed(JSON.stringify({ image: '1.svg' }), 'data:application/json,{}').image).toBeNull();
  });

  it('gives null for missing or non-text fields and keeps only objects of attributes', () => {
    const document = parsed(JSON.stringify({ name: 7, description: '', attributes: [{ trait_type: 'a', value: 1 }, 'loose', null, [1]] }));
    expect(document).toMatchObject({ name: null, description: null, image: null, animationUrl: null, attributes: [{ trait_type: 'a', value: 1 }] });
    expect(parsed(JSON.stringify({ attributes: { a: 1 } })).attributes).toBeNull();
  });

  it('reads UTF-8 with a byte-order mark', () => {
    expect(parsed(`\uFEFF${JSON.stringify({ name: 'Ünïcode' })}`).name).toBe('Ünïcode');
  });

  it('refuses what is not a JSON object', () => {
    expect(failure('<html>404</html>')).toBe('not_json: not JSON');
    expect(failure('')).toBe('not_json: not JSON');
    expect(failure(new Uint8Array([0x7b, 0xff, 0x7d]))).toBe('not_json: not JSON');
    expect(failure('[{"name":"x"}]')).toBe('not_json: not a JSON object');
    expect(failure('null')).toBe('not_json: not a JSON object');
    expect(failure('"text"')).toBe('not_json: not a JSON object');
  });

  it(`refuses a document nested deeper than ${MAX_DEPTH}, and takes one exactly that deep`, () => {
    const nest = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
    expect(failure(nest(MAX_DEPTH))).toBe('parsed');
    expect(failure(nest(MAX_DEPTH + 1))).toBe(`not_json: JSON nested deeper than ${MAX_DEPTH}`);
    expect(failure(`{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`)).toBe(`not_json: JSON nested deeper than ${MAX_DEPTH}`);
  });
});
