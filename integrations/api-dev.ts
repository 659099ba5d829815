import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { clientIp } from '../src/api/client-ip.ts';
import { openApiDocumentPaths } from '../src/api/operations/openapi.ts';
import { isApiPath } from '../src/api/paths.ts';
import { loadSiteApi, type SiteApi } from '../src/runtime/site-api.ts';
import { devApiConfig } from '../src/config/config.ts';
import { isLocale } from '../src/site/locales.ts';
import { headerValue, toApiRequest, writeWebResponse } from '../src/server/node-adapter.ts';

// `astro dev` serves the same API router as the production server (src/server/). The search
// indexes and the OpenAPI document are prerendered files in production; in dev the surface
// integration answers them.

export default function crucibleApiDev(): AstroIntegration {
  let root = process.cwd();
  let origin = 'http://localhost:4321';
  return {
    name: 'crucible-api-dev',
    hooks: {
      'astro:config:done': ({ config }) => {
        root = fileURLToPath(config.root);
        if (config.site) origin = new URL(config.site).origin;
      },
      'astro:server:setup': ({ server, logger }) => {
        const { trustProxy } = devApiConfig();
        let api: Promise<SiteApi> | undefined;
        // Dropping an API stops its local chains and closes its stores before the next one starts.
        const drop = () => {
          const previous = api;
          api = undefined;
          void previous?.then((old) => old.close()).catch((error: unknown) => logger.error(`closing the API failed: ${String(error)}`));
        };
        server.watcher.on('all', (_event: string, path: string) => {
          if (/[\\/]networks[\\/][^\\/]+\.ya?ml$/.test(path)) drop(); // faucet ids changed
        });
        server.httpServer?.once('close', drop);
        const log = {
          info: (msg: string, fields?: Record<string, unknown>) => logger.info(`${msg} ${JSON.stringify(fields ?? {})}`),
          error: (msg: string, fields?: Record<string, unknown>) => logger.error(`${msg} ${JSON.stringify(fields ?? {})}`),
        };
        server.middlewares.use(async (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => {
          const path = (req.url ?? '/').split('?', 1)[0]!;
          const method = req.method ?? 'GET';
          if (!isApiPath(path)) return next();
          const search = /^\/api\/search\/([^/]+)$/.exec(path);
          const prerendered = (search && isLocale(search[1]!)) || (openApiDocumentPaths as readonly string[]).includes(path);
          if (prerendered && (method === 'GET' || method === 'HEAD')) return next();
          try {
            const { router } = await (api ??= loadSiteApi({ root, origin }));
            const requestId = crypto.randomUUID();
            const context = {
              requestId,
              clientIp: clientIp({ socketAddress: req.socket.remoteAddress, header: (name) => headerValue(req, name) }, trustProxy),
              log,
            };
            const response = await router.handle(toApiRequest(req, origin), context);
            await writeWebResponse(res, response, { head: method === 'HEAD', requestId });
          } catch (error) {
            drop();
            next(error);
          }
        });
      },
    },
  };
}
