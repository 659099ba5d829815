import { describe, expect, it } from 'vitest';
import {
  dashboardUrl,
  homeUrl,
  htmlFileOf,
  isSignedInDashboardPath,
  llmsFullUrl,
  llmsUrl,
  nodeUrlOf,
  pageUrl,
  rpcReferenceUrl,
  sectionLlmsUrl,
  sectionUrl,
  twinUrl,
  webSocketUrlOf,
} from '../../../src/site/urls.ts';

describe('site URLs', () => {
  it("tells the signed-in dashboard's pages from its public ones, in every locale", () => {
    for (const page of ['apps', 'app', 'webhooks', 'account'] as const) {
      expect(isSignedInDashboardPath(dashboardUrl('en', page)), page).toBe(true);
      expect(isSignedInDashboardPath(dashboardUrl('ja', page).replace(/\/$/, '')), page).toBe(true);
    }
    for (const page of ['start', 'sign-in', 'sign-up'] as const) expect(isSignedInDashboardPath(dashboardUrl('ko', page)), page).toBe(false);
    expect(isSignedInDashboardPath('/docs/dashboard/apps/')).toBe(false);
    expect(isSignedInDashboardPath('/dashboard/apps/x/')).toBe(false);
  });

  it('leaves English unprefixed and prefixes other locales', () => {
    expect(homeUrl('en')).toBe('/');
    expect(homeUrl('zh-Hant')).toBe('/zh-Hant/');
    expect(sectionUrl('pt-BR', 'case-studies')).toBe('/pt-BR/case-studies/');
    expect(pageUrl('en', 'rpc', 'base-sepolia')).toBe('/rpc/base-sepolia');
    expect(sectionLlmsUrl('ja', 'blog')).toBe('/ja/blog/llms.txt');
    expect(llmsUrl('en')).toBe('/llms.txt');
    expect(llmsFullUrl('en')).toBe('/llms-full.txt');
    expect(llmsFullUrl('ja')).toBe('/ja/llms-full.txt');
  });

  it('maps HTML URLs to their twins and built files', () => {
    expect(twinUrl('/')).toBe('/index.md');
    expect(twinUrl('/ja/')).toBe('/ja/index.md');
    expect(twinUrl('/blog/x')).toBe('/blog/x.md');
    expect(htmlFileOf('/')).toBe('index.html');
    expect(htmlFileOf('/ja/blog/')).toBe('ja/blog/index.html');
    expect(htmlFileOf('/ja/blog/x')).toBe('ja/blog/x.html');
  });

  it('puts the JSON-RPC method reference among each locale’s RPC pages', () => {
    expect(rpcReferenceUrl('en')).toBe('/rpc/methods');
    expect(rpcReferenceUrl('zh-Hans')).toBe('/zh-Hans/rpc/methods');
  });
});

describe('{node_url} (docs/hosts-and-paths.md#node-url)', () => {
  it('is <site origin>/node/<network> without NODE_DOMAIN', () => {
    expect(nodeUrlOf('base-sepolia', { siteOrigin: 'http://localhost:4321', nodeDomain: null })).toBe('http://localhost:4321/node/base-sepolia');
    expect(nodeUrlOf('base-sepolia', { siteOrigin: 'https://crucible.example/', nodeDomain: null })).toBe('https://crucible.example/node/base-sepolia');
  });

  it('is https://<network>.<NODE_DOMAIN> with it, whatever the site origin', () => {
    expect(nodeUrlOf('base-sepolia', { siteOrigin: 'http://localhost:4321', nodeDomain: 'node.example.com' })).toBe('https://base-sepolia.node.example.com');
  });

  it('is opened by WebSocket clients at ws:// for http:// and wss:// for https://, the rest unchanged', () => {
    expect(webSocketUrlOf('http://127.0.0.1:4321/node/base-sepolia/v2/abc')).toBe('ws://127.0.0.1:4321/node/base-sepolia/v2/abc');
    expect(webSocketUrlOf('https://base-sepolia.node.example.com/v2/')).toBe('wss://base-sepolia.node.example.com/v2/');
    expect(webSocketUrlOf('https://httpbin.example/node/http/v2/')).toBe('wss://httpbin.example/node/http/v2/');
  });
});
