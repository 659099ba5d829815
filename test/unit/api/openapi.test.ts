import { describe, expect, it } from 'vitest';
import { ERROR_BODY_CODES as apiErrorCodes } from '../../../src/errors/codes.ts';
import { faucetErrorCodes } from '../../../src/faucet/errors.ts';
import { siteOpenApiDocument } from '../../../src/runtime/site-api.ts';
import { locales } from '../../../src/site/locales.ts';
import { loadSite } from '../../../src/site/read-content.ts';
import { sections } from '../../../src/site/sections.ts';

const origin = 'https://crucible.dev';
const site = await loadSite('.');
type Doc = {
  openapi: string;
  info: { version: string };
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, Record<string, unknown>> };
};
const doc = siteOpenApiDocument({ origin, networks: site.networks }) as unknown as Doc;

describe('OpenAPI document (docs/website.md#openapi-document)', () => {
  it('is OpenAPI 3.1.0, description version 1.0.0, on the site origin', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers).toEqual([{ url: origin }]);
  });

  it('takes the faucet id enum from the networks data (23 ids)', () => {
    const ids = site.networks.map((n) => n.id);
    expect(ids).toHaveLength(23);
    expect(ids).toContain('crucible-testnet');
    expect(doc.components.schemas.FaucetId!.enum).toEqual(ids);
  });

  it('takes the statusCode, Error code and locale enums from their tables', () => {
    expect(doc.components.schemas.FaucetErrorCode!.enum).toEqual(faucetErrorCodes);
    expect(doc.components.schemas.FaucetErrorCode!.enum).toEqual(expect.arrayContaining(['max_balance_exceeded', 'insufficient_faucet_balance_tx']));
    const error = doc.components.schemas.Error as { properties: { error: { properties: { code: { enum: string[] } } } } };
    expect(error.properties.error.properties.code.enum).toEqual(apiErrorCodes);
    expect(doc.components.schemas.Locale!.enum).toEqual([...locales]);
  });

  it('has the schemas of 2.1–2.6', () => {
    for (const name of ['FaucetSendRequest', 'FaucetSendSuccess', 'FaucetError', 'FaucetTransactionStatus', 'Error', 'SearchGroup', 'SearchItem']) {
      expect(doc.components.schemas[name], name).toBeDefined();
    }
  });

  it('describes every operation of 4.1–4.8 with each response code', () => {
    const responses = (path: string, method = 'get') => Object.keys(doc.paths[path]?.[method]?.responses ?? {});
    expect(responses('/api/faucets/{faucetId}/send', 'post')).toEqual(['200', '400', '403', '409', '429', '500', '503']);
    expect(responses('/api/faucets/{faucetId}/status')).toEqual(['200', '400', '429', '500']);
    expect(responses('/api/search/{locale}')).toEqual(['200', '304', '404']);
    expect(responses('/api/ip')).toEqual(['200', '500']);
    expect(responses('/openapi.json')).toContain('200');
    expect(responses('/api/openapi.json')).toContain('200');
    expect(responses('/index.md')).toEqual(['200', '304']);
    expect(responses('/')).toEqual(['200', '304', '307', '404']);
    for (const section of sections) {
      expect(responses(`/${section}/{slug}.md`), section).toEqual(['200', '304', '404']);
      expect(responses(`/{locale}/${section}/{slug}.md`), section).toEqual(['200', '304', '404']);
      expect(responses(`/${section}/{slug}`), section).toContain('307');
    }
    for (const path of ['/llms.txt', '/llms-full.txt', '/sitemap.xml']) expect(responses(path), path).toContain('200');
  });

  it('gives every operation a unique operationId and no unresolved inline schema', () => {
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    const text = JSON.stringify(doc);
    expect(text).not.toContain('__inline_');
    expect(text).not.toContain('"$schema"');
    for (const [, name] of text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) expect(doc.components.schemas[name!], name).toBeDefined();
  });
});
