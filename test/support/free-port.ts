import { connect, createServer, type Server, type Socket } from 'node:net';

// Ports for tests that must name a port before something listens on it, or that need one nothing
// answers on. A port found free and let go can be taken before it is used (a server listening on
// port 0, or the local end of a new connection, gets it): these hold theirs until the last moment.

/** A TCP port free on 127.0.0.1 right now, for a test that must name the port before it listens. */
export async function freePort(): Promise<number> {
  const { port, release } = await reservePort();
  await release();
  return port;
}

/**
 * A TCP port on 127.0.0.1 held by a listening probe until `release`: nothing else gets it meanwhile
 * (new connections skip a port a server holds), so a build that must name its origin can run first
 * and the server start right after the release.
 */
export async function reservePort(): Promise<{ port: number; release(): Promise<void> }> {
  const probe = createServer();
  await listen(probe);
  const { port } = probe.address() as { port: number };
  return { port, release: () => close(probe) };
}

/**
 * A TCP port on 127.0.0.1 that refuses connections until `release`: the local end of an open
 * connection to a server of its own, so nothing can listen on it meanwhile and a connection to it is
 * refused at once.
 */
export async function refusingPort(): Promise<{ port: number; release(): Promise<void> }> {
  const accepted: Socket[] = [];
  const server = createServer((socket) => accepted.push(socket));
  await listen(server);
  const socket = connect((server.address() as { port: number }).port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return {
    port: socket.localPort!,
    async release() {
      socket.destroy();
      for (const end of accepted) end.destroy();
      await close(server);
    },
  };
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
