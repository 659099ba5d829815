import { spawn } from 'node:child_process';
import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { freePort } from '../../test/support/free-port.ts';

// The processes around the node gateway benchmark: what each costs in CPU (read from /proc, so
// that figures survive a machine shared with other work), and bare node:http answering the
// gateway's own bytes, the ceiling for any server written on node:http on this machine.

/** CPU time a process has used so far, in ms (Linux clock ticks are 10 ms): user + system, and system. */
export async function cpuMsOf(pid: number): Promise<{ total: number; system: number }> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // pid (comm) state ppid …: the fields after the last ')' start at field 3; utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { total: (Number(fields[11]) + Number(fields[12])) * 10, system: Number(fields[12]) * 10 };
}

/** This process's child whose command line contains `marker` (startBuiltSite does not hand out its pid). */
export async function childPid(marker: string): Promise<number> {
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== process.pid) continue;
    if ((await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '')).includes(marker)) return Number(name);
  }
  throw new Error(`no child process of this one runs ${marker}`);
}

export interface RecordedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface ListeningProcess {
  origin: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts a Node script that prints a JSON line `{"msg":"listening","url":…}` when it serves, as the server and the bare server do. */
async function startListening(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<ListeningProcess> {
  const child = spawn(process.execPath, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let pending = '';
    const onData = (chunk: string) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const record = line.startsWith('{') ? (JSON.parse(line) as { msg?: string; url?: string }) : {};
        if (record.msg !== 'listening' || !record.url) continue;
        child.stdout.off('data', onData);
        child.stdout.resume(); // drained from now on, so the child never blocks on a full pipe
        resolve(record.url);
      }
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    void exited.then(() => reject(new Error(`${args.join(' ')} exited before listening`)));
  });
  return {
    origin: url.replace(/\/$/, ''),
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * bench/bare-server.ts (the Server benchmark's baseline) answering each path with recorded
 * bytes; it does not read request bodies (node:http discards them), so it does less than any
 * JSON-RPC server could.
 */
export async function startBareServer(scratch: string, answers: Record<string, RecordedAnswer>): Promise<ListeningProcess> {
  const spec = join(scratch, 'bare-answers.json');
  const recorded = Object.entries(answers).map(([path, answer]) => {
    const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(answer.body)) };
    // The bare server looks answers up by URL and Accept header (none here).
    return [`${path} `, { status: answer.status, headers, body: Buffer.from(answer.body).toString('base64') }];
  });
  await writeFile(spec, JSON.stringify(Object.fromEntries(recorded)));
  return startListening([join(import.meta.dirname, '../bare-server.ts'), spec]);
}

/**
 * The production server of another checkout (`--baseline <dir>`: an earlier commit with its
 * node_modules), started as startBuiltSite starts this one's, with the same environment: the
 * gateway before and after a change, measured in the same rounds.
 */
export async function startBaselineServer(checkout: string, env: Record<string, string> & { DATABASE_PATH: string }): Promise<ListeningProcess> {
  const databasePath = await databaseForBaseline(checkout, env.DATABASE_PATH);
  return startListening(['src/server/main.ts'], {
    cwd: checkout,
    env: { PORT: '0', HOST: '127.0.0.1', REQUEST_LOG: 'off', ...env, DATABASE_PATH: databasePath },
  });
}

/**
 * A copy of the bench's SQLite database (the same app and key) for an earlier checkout's server,
 * which refuses to start on a database migrated past its own migrations: those are left out of
 * the copy's migration table, and the tables and columns they added stay, unread by it.
 */
async function databaseForBaseline(checkout: string, databasePath: string): Promise<string> {
  const known = (await readdir(join(checkout, 'src/db/migrations'))).filter((name) => /^\d{4}-.*\.ts$/.test(name)).map((name) => name.slice(0, -3));
  const copy = `${databasePath}.baseline`;
  await copyFile(databasePath, copy);
  const database = new DatabaseSync(copy);
  try {
    const applied = database.prepare('select name from kysely_migration').all() as Array<{ name: string }>;
    const remove = database.prepare('delete from kysely_migration where name = ?');
    for (const { name } of applied) if (!known.includes(name)) remove.run(name);
  } finally {
    database.close();
  }
  return copy;
}

/** A process and its descendants, from /proc (the supervisor and its server and workers' processes). */
export async function processTree(rootPid: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    if (stat) parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
  }
  const inTree = (pid: number): boolean => {
    for (let at: number | undefined = pid, depth = 0; at && depth < 64; at = parents.get(at), depth++) if (at === rootPid) return true;
    return false;
  };
  return [...parents.keys()].filter(inTree);
}

/** CPU time so far (ms) summed over processes; one that has exited counts nothing. */
export async function cpuMsOfAll(pids: readonly number[]): Promise<{ total: number; system: number }> {
  const each = await Promise.all(pids.map((pid) => cpuMsOf(pid).catch(() => ({ total: 0, system: 0 }))));
  return each.reduce((sum, cpu) => ({ total: sum.total + cpu.total, system: sum.system + cpu.system }), { total: 0, system: 0 });
}

interface SupervisedServer extends ListeningProcess {
  /** The server processes' pids (the supervisor's is `pid`; the workers' process is the rest of its tree). */
  serverPids: number[];
}

/**
 * This checkout's production server as `npm start` runs it with SERVER_PROCESSES=`count`
 * (scripts/start.ts: a supervisor, `count` server processes sharing one port, one workers'
 * process), over a built site given as SITE_DIR in `env`; ready when every process has started.
 */
export async function startSupervisedServer(count: number, env: Record<string, string>): Promise<SupervisedServer> {
  const child = spawn(process.execPath, ['scripts/start.ts'], {
    cwd: join(import.meta.dirname, '../..'),
    // The port is named before the processes listen: node:cluster shares one port among them. The
    // indexer is off as startBuiltSite has it, and so is the price sampler, which in local mode
    // would start a devnet of its own: the bench's anvil is the only chain.
    env: {
      ...process.env,
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      REQUEST_LOG: 'off',
      INDEXER_IN_SERVER: 'off',
      PRICES_IN_SERVER: 'off',
      ...env,
      SERVER_PROCESSES: String(count),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const serverPids: number[] = [];
  let workersStarted = false;
  const url = await new Promise<string>((resolve, reject) => {
    let pending = '';
    let origin = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const record = line.startsWith('{') ? (JSON.parse(line) as { msg?: string; url?: string; pid?: number }) : {};
        if (record.msg === 'listening' && record.url && record.pid) {
          serverPids.push(record.pid);
          origin = record.url;
        } else if (record.msg === 'workers started') workersStarted = true;
        if (origin && serverPids.length === count && workersStarted) resolve(origin);
      }
    });
    void exited.then(() => reject(new Error(`npm start with SERVER_PROCESSES=${count} exited before its processes started`)));
  });
  return {
    origin: url.replace(/\/$/, ''),
    pid: child.pid!,
    serverPids,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
