import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.ts';

// A real, throwaway nginx (Debian's /usr/sbin/nginx) in front of the test's Crucible servers, with
// the operator's configuration deploy/nginx.conf (docs/operating-at-scale.md): the file as it is,
// but for its upstream `server` lines and its `listen` line (both marked there), wrapped in a main
// configuration that keeps every file of nginx's in a temporary folder. Stopped by the test.

const NGINX = '/usr/sbin/nginx';
export const nginxConfigFile = fileURLToPath(new URL('../../deploy/nginx.conf', import.meta.url));

export interface TestNginx {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  stop(): Promise<void>;
}

/** deploy/nginx.conf with these servers (`host:port`) in its upstream and listening on `port` of 127.0.0.1. */
export function nginxConfigFor(config: string, servers: readonly string[], port: number): string {
  const upstreamLines = /^ {4}server \S+ (.*); # upstream servers\n/gm;
  const [first] = config.match(upstreamLines) ?? [];
  if (!first) throw new Error('deploy/nginx.conf has no upstream server line');
  const options = first.replace(/^ {4}server \S+ /, '').replace(/; # upstream servers\n$/, '');
  let replaced = false;
  const withServers = config.replace(upstreamLines, () => {
    if (replaced) return '';
    replaced = true;
    return servers.map((server) => `    server ${server} ${options};\n`).join('');
  });
  const listen = /^ {4}listen 80; # listen$/m;
  if (!listen.test(withServers)) throw new Error('deploy/nginx.conf has no listen line');
  return withServers.replace(listen, `    listen 127.0.0.1:${port};`);
}

export async function startNginx(servers: readonly string[]): Promise<TestNginx> {
  if (!existsSync(NGINX)) throw new Error(`${NGINX} is missing: apt-get install -y nginx`);
  const prefix = await mkdtemp(join(tmpdir(), 'crucible-nginx-'));
  await mkdir(join(prefix, 'logs'));
  const port = await freePort();
  await writeFile(join(prefix, 'crucible.conf'), nginxConfigFor(await readFile(nginxConfigFile, 'utf8'), servers, port));
  // Everything nginx writes stays under the prefix; one worker process is plenty for a test.
  await writeFile(
    join(prefix, 'nginx.conf'),
    `worker_processes 1;
pid ${join(prefix, 'nginx.pid')};
error_log ${join(prefix, 'logs/error.log')} info;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path ${join(prefix, 'client_body')};
    proxy_temp_path ${join(prefix, 'proxy')};
    fastcgi_temp_path ${join(prefix, 'fastcgi')};
    uwsgi_temp_path ${join(prefix, 'uwsgi')};
    scgi_temp_path ${join(prefix, 'scgi')};
    include ${join(prefix, 'crucible.conf')};
}
`,
  );
  const child = spawn(NGINX, ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGQUIT');
      await exited;
    }
    await rm(prefix, { recursive: true, force: true });
  };
  // Listening once a connection is accepted; an exit first is a bad configuration or a taken port.
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`nginx exited (code ${child.exitCode}):\n${output}${await readFile(join(prefix, 'logs/error.log'), 'utf8').catch(() => '')}`);
    }
    const accepted = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (accepted) break;
    if (attempt > 2_000) {
      await stop();
      throw new Error(`nginx did not listen on ${port}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { origin: `http://127.0.0.1:${port}`, stop };
}
