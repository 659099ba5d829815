import { fileURLToPath } from 'node:url';
import { clientIp } from '../api/client-ip.ts';
import type { BuildEnvironment } from '../config/build-environment.ts';
import { buildConfig, platformConfig, serverConfig } from '../config/config.ts';
import { ConfigError } from '../config/config-error.ts';
import { refuseLocalModeOnNetwork, type ServerConfig } from '../config/server.ts';
import { attachNodeWebSockets } from '../node/websocket/attach.ts';
import { buildServerRuntime } from '../runtime/server-runtime.ts';
import { createServerLogger } from './log.ts';
import { headerValue } from './node-adapter.ts';
import { createSiteServer, listen } from './server.ts';
import { openStaticSite } from './static-site.ts';
import { loadSurfaceRules } from './surface-rules.ts';

// Entry point of the production server: `node src/server/main.ts` (npm start runs it after
// building when needed). It reads the configuration (the environment and `.env`, see
// .env.example), opens the built site, builds the platform's runtime (src/runtime/) and serves both.

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/**
 * `role` (docs/operating-at-scale.md): `all`, one process that serves and runs the workers (a
 * direct `node src/server/main.ts`, or SERVER_PROCESSES=1); `server`, one of the supervisor's
 * server processes (src/server/supervisor.ts).
 */
export async function startSiteServer(config: ServerConfig, role: 'all' | 'server' = 'all'): Promise<RunningServer> {
  const logger = createServerLogger({ requests: config.requestLog !== 'off', ownFetches: config.requestLog === 'all' });
  refuseLocalModeOnNetwork(config, { local: platformConfig().mode === 'local' });
  const rules = await loadSurfaceRules(config.distDir);
  refuseOtherBuild(rules.environment, buildConfig());
  const site = await openStaticSite(config.distDir, rules);
  const runtime = await buildServerRuntime({ root: projectRoot, origin: rules.site, server: config, surface: rules, log: logger, role });
  let stopping = false;
  const server = createSiteServer({
    site,
    router: runtime.router,
    node: runtime.node,
    rest: runtime.rest,
    media: runtime.media,
    mcp: runtime.mcp,
    origin: rules.site,
    trustProxy: config.trustProxy,
    logger,
    // A stopping process says it is not ready, so a load balancer still asking sends no more.
    health: {
      readiness: async () => (stopping ? { ready: false, checks: [{ part: 'process', ok: false, error: 'stopping' }] } : runtime.readiness()),
    },
  });
  const websockets = attachNodeWebSockets(server, {
    ...runtime.webSockets,
    clientIp: (req) => clientIp({ socketAddress: req.socket.remoteAddress, header: (name) => headerValue(req, name) }, config.trustProxy),
    logger,
  });
  const url = await listen(server, config.port, config.host);
  logger.info('listening', { url, pid: process.pid, distDir: config.distDir, trustProxy: config.trustProxy.mode });
  return {
    url,
    async close() {
      stopping = true;
      // No new connections; idle keep-alive ones close now, busy ones once their request is answered.
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeIdleConnections();
      // Open WebSockets (closed 1001, so clients reconnect elsewhere) would keep server.close from resolving.
      await websockets.close();
      await closed;
      await runtime.close();
    },
  };
}

/**
 * The supervisor's workers' process (docs/operating-at-scale.md): the runtime with the workers
 * each *_IN_SERVER leaves in the server (all by default), and no HTTP server.
 */
export async function startWorkersProcess(config: ServerConfig): Promise<{ close(): Promise<void> }> {
  const logger = createServerLogger({ requests: false, ownFetches: false });
  const rules = await loadSurfaceRules(config.distDir);
  const runtime = await buildServerRuntime({ root: projectRoot, origin: rules.site, server: config, surface: rules, log: logger, role: 'workers' });
  logger.info('workers started', { pid: process.pid });
  return runtime;
}

/**
 * Pages carry what they were built with: the faucet pages' Turnstile widget (whose tokens this
 * server checks) and the node URLs the RPC and faucet pages show. A build for another site key,
 * action or NODE_DOMAIN would refuse every visitor or send them elsewhere, so the server does not
 * start on one.
 */
function refuseOtherBuild(built: Record<string, string | null> | null, now: BuildEnvironment): void {
  if (!built) return;
  for (const [field, variable] of [
    ['turnstileSiteKey', 'TURNSTILE_SITE_KEY'],
    ['turnstileAction', 'TURNSTILE_ACTION'],
    ['nodeDomain', 'NODE_DOMAIN'],
  ] as const) {
    if ((built[field] ?? null) !== now[field]) {
      throw new ConfigError(
        `${variable} is ${JSON.stringify(now[field])}, but the pages in the built site were built with ${JSON.stringify(built[field] ?? null)}: rebuild the site (npm run build) with the same value.`,
      );
    }
  }
}

/** How long a stopping process waits for in-flight requests (and a worker for its step) before it leaves. */
const STOP_GRACE_MS = 10_000;

/** Starts the server (or a role's part of it) and stops it cleanly on SIGINT/SIGTERM; exits with a message if it cannot start. */
export async function serveUntilStopped<Running extends { close(): Promise<void> } = RunningServer>(
  readConfig: () => ServerConfig,
  start: (config: ServerConfig) => Promise<Running> = startSiteServer as never,
  signals: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'],
): Promise<Running> {
  try {
    const running = await start(readConfig());
    let stopping = false;
    const stop = () => {
      // A second signal while stopping: leave now (anvil children are killed on exit).
      if (stopping) process.exit(1);
      stopping = true;
      // In-flight requests get a moment (the request timeout bounds them anyway), then the process leaves even if a client holds a connection.
      setTimeout(() => process.exit(0), STOP_GRACE_MS).unref();
      void running.close().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(`Crucible server did not stop cleanly: ${error instanceof Error ? error.message : String(error)}`);
          process.exit(1);
        },
      );
    };
    // `on`, not `once`: src/chain/anvil.ts re-raises the signal (and so ends the process before
    // the faucet's stores are closed) when it finds no other listener left.
    for (const signal of signals) process.on(signal, stop);
    return running;
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : `Crucible server failed to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

if (import.meta.main) await serveUntilStopped(serverConfig);
