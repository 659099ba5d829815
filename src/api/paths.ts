// Which request paths the site API answers, shared by the production server and `astro dev`
// (integrations/api-dev.ts).

/** Paths the API answers unless dist/ holds a prerendered file there (docs/hosts-and-paths.md#route-families); `/prices/` is the keyed REST door's under the production server. */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/') || path === '/openapi.json' || path.startsWith('/prices/');
}
