// HTTP facts shared by the build (integrations/surface/), the API and the server: the media types
// of the text formats they serve, and the Link headers between a twin and its HTML page.

export const markdownType = 'text/markdown; charset=utf-8';
export const plainTextType = 'text/plain; charset=utf-8';
export const jsonType = 'application/json; charset=utf-8';
export const xmlType = 'application/xml; charset=utf-8';

/** `Link` header value for a twin (docs/website.md#markdown-twins). */
export function canonicalLink(site: string, htmlPath: string): string {
  return `<${new URL(htmlPath, site).href}>; rel="canonical"`;
}

/** `Link` header value for an HTML page that has a twin: where its markdown is (docs/website.md#markdown-twins). */
export function twinAlternateLink(twinPath: string): string {
  return `<${twinPath}>; rel="alternate"; type="text/markdown"`;
}
