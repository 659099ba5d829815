// Which request paths the site API answers, shared by the production server and `astro dev`
// (integrations/api-dev.ts).

/** Paths the API answers unless dist/ holds a prerendered file there (spec 4.3–4.6); `/prices/` is the keyed REST door's under the production server. */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/') || path === '/openapi.json' || path.startsWith('/prices/');
}
