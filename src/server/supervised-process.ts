import { serverConfig } from '../config/config.ts';
import { sayStarted, type ProcessRole } from '../runtime/supervision.ts';
import { serveUntilStopped, startSiteServer, startWorkersProcess } from './main.ts';

// One process under `npm start`'s supervisor (src/server/supervisor.ts), forked by node:cluster
// with its role as the argument: `server` serves HTTP on the shared port, `workers` runs the
// background workers. Each stops cleanly on SIGTERM, which the supervisor sends; Ctrl-C's SIGINT,
// which the terminal sends every process, is the supervisor's to act on.

process.on('SIGINT', () => {});
const role = process.argv[2] as ProcessRole;
if (role === 'server') {
  const running = await serveUntilStopped(serverConfig, (config) => startSiteServer(config, 'server'), ['SIGTERM']);
  sayStarted(running.url);
} else {
  await serveUntilStopped(serverConfig, startWorkersProcess, ['SIGTERM']);
  sayStarted();
}
