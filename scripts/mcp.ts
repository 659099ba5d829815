// `npm run -s mcp` (or `npx crucible mcp`): the MCP server over stdio for a desktop agent
// (docs/mcp.md#stdio). It carries the agent's messages to a running Crucible's `<site origin>/mcp`
// with an app key (MCP_SERVER_URL, MCP_KEY, or --url and --key), so tools, charges and answers are
// the server's own. Without a URL it uses the Crucible `npm start` serves here, and starts one (its
// output on stderr: stdout is the protocol's) when none answers; that one stops when the agent does.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildConfig, mcpBridgeConfig } from '../src/config/config.ts';
import { ConfigError } from '../src/config/config-error.ts';
import { bridgeStdioToHttp } from '../src/mcp/stdio-bridge.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/** How long a Crucible this command started may take to answer: the first `npm start` builds the site. */
const START_TIMEOUT_MS = 15 * 60_000;

const usage = `Usage: npm run -s mcp -- [--url <origin>] [--key <key>]

Speaks MCP over stdin and stdout and forwards every message to <origin>/mcp.
  --url   a running Crucible (default MCP_SERVER_URL, else the one npm start serves here,
          started if none answers)
  --key   the app key sent as Authorization: Bearer <key> (default MCP_KEY, else demo)
`;

const log = (line: string) => process.stderr.write(`${line}\n`);

export async function runMcp(argv: string[]): Promise<number> {
  let options: { url?: string; key?: string; help?: boolean };
  let settings: ReturnType<typeof mcpBridgeConfig>;
  let localOrigin: string;
  try {
    options = parseArgs({ args: argv, options: { url: { type: 'string' }, key: { type: 'string' }, help: { type: 'boolean' } } }).values;
    settings = mcpBridgeConfig();
    localOrigin = buildConfig().siteOrigin;
  } catch (error) {
    log(error instanceof Error ? error.message : String(error));
    log(usage);
    return error instanceof ConfigError ? 1 : 2;
  }
  if (options.help) {
    process.stderr.write(usage);
    return 0;
  }
  const named = options.url ?? settings.serverUrl;
  const origin = named ? new URL(named).origin : localOrigin;
  let child: ChildProcess | null = null;
  if (!(await answers(origin))) {
    if (named) {
      log(`No Crucible answers at ${origin}: start it (npm start), or point --url at one that runs.`);
      return 1;
    }
    log(`No Crucible answers at ${origin}: starting one (npm start; the first start builds the site, about a minute)…`);
    child = spawn(process.execPath, ['scripts/start.ts'], { cwd: root, stdio: ['ignore', 2, 2] });
    const stopChild = () => child?.kill('SIGTERM');
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      process.once(signal, () => {
        stopChild();
        process.exit(1);
      });
    if (!(await startedIn(origin, child))) {
      log(`The Crucible this command started did not answer at ${origin}.`);
      stopChild();
      return 1;
    }
  }
  const bridge = await bridgeStdioToHttp({ origin, key: options.key ?? settings.key, log });
  await bridge.closed;
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  return 0;
}

/** Whether any server answers at `<origin>/mcp` (a Crucible answers OPTIONS there). */
async function answers(origin: string): Promise<boolean> {
  try {
    await fetch(new URL('/mcp', origin), { method: 'OPTIONS', signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}

/** Waits, a second at a time, until the started server answers; false if it exits or the wait runs out. */
async function startedIn(origin: string, child: ChildProcess): Promise<boolean> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline && child.exitCode === null) {
    if (await answers(origin)) return true;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  return false;
}

// Sockets of the HTTP transport may linger after the agent left: leave once the bridge is done.
if (import.meta.main) process.exit(await runMcp(process.argv.slice(2)));
