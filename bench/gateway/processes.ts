import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

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
export function startBaselineServer(checkout: string, env: Record<string, string>): Promise<ListeningProcess> {
  return startListening(['src/server/main.ts'], { cwd: checkout, env: { PORT: '0', HOST: '127.0.0.1', REQUEST_LOG: 'off', ...env } });
}
