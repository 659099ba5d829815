import { serverConfig } from '../config/config.ts';
import { sayStarted, type ProcessRole } from '../runtime/supervision.ts';
import { serveUntilStopped, startSiteServer, startWorkersProcess } from './main.ts';

// One process under `npm start`'s supervisor (src/server/supervisor.ts), forked by node:cluster
// with its role as the argument: `server` serves HTTP on the shared port, `workers` runs the
// background workers. Each stops cleanly on SIGTERM, as the server alone does.

const role = process.argv[2] as ProcessRole;
if (role === 'server') {
  const running = await serveUntilStopped(serverConfig, (config) => startSiteServer(config, 'server'));
  sayStarted(running.url);
} else {
  await serveUntilStopped(serverConfig, startWorkersProcess);
  sayStarted();
}
