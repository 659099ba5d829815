import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startBuiltSite } from '../test/support/site.ts';
import { cpuModel, writeBenchmarksSection } from './benchmarks-file.ts';
import { writeFixtureDist } from '../test/support/fixture-dist.ts';

// `npm run bench:server [-- --dist <dir>] [--duration <s>] [--rounds <n>] [--connections <n>] [--only <text>]`: requests/s and
// p99 of the Crucible server for /api/ip, a twin, a 307 negotiation and an HTML page, each side
// by side in the same run with bare node:http answering the same bytes (bench/bare-server.ts);
// then `GET /` alone and while 8 clients keep sending 2 MB bodies of nested arrays to the node
// gateway with the demo key (bench/nested-body-clients.ts), side by side in the same run.
// Uses dist/ when it is built, else a fixture. Writes the figures to BENCHMARKS.md.

const root = fileURLToPath(new URL('..', import.meta.url));
const option = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1]!;
};
const duration = Number(option('duration', '10'));
/** Only the cases whose name contains this (quick local runs); the full run writes BENCHMARKS.md. */
const only = option('only', '');
const connections = Number(option('connections', '32'));
const rounds = Number(option('rounds', '4'));

interface Case {
  name: string;
  path: string;
  headers: Record<string, string>;
  expect: number;
}

interface Recorded {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function pickDist(): Promise<{ distDir: string; cleanup: () => Promise<void>; source: string }> {
  const given = option('dist', '');
  if (given) return { distDir: given, cleanup: async () => {}, source: given };
  if (existsSync(join(root, 'dist/_surface.json'))) return { distDir: join(root, 'dist'), cleanup: async () => {}, source: 'dist/ (npm run build)' };
  const fixture = await writeFixtureDist();
  return { distDir: fixture.distDir, cleanup: () => rm(fixture.root, { recursive: true, force: true }), source: 'test fixture dist' };
}

/** A twin and its HTML page: the first manifest entry whose files are both there. */
async function pickPage(distDir: string): Promise<{ html: string; twin: string }> {
  const manifest = JSON.parse(await readFile(join(distDir, '_surface.json'), 'utf8')) as { twins: Record<string, string> };
  for (const [twin, html] of Object.entries(manifest.twins)) {
    if (html.endsWith('/')) continue;
    if (existsSync(join(distDir, `${html}.html`)) && existsSync(join(distDir, twin))) return { html, twin };
  }
  throw new Error('no leaf page with a twin in the manifest');
}

async function record(origin: string, cases: Case[]): Promise<Record<string, Recorded>> {
  const recorded: Record<string, Recorded> = {};
  for (const c of cases) {
    const response = await fetch(origin + c.path, { headers: c.headers, redirect: 'manual' });
    if (response.status !== c.expect) throw new Error(`${c.name}: expected ${c.expect}, got ${response.status}`);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)) headers[name] = value;
    });
    const body = Buffer.from(await response.arrayBuffer());
    headers['content-length'] = String(body.byteLength);
    recorded[`${c.path} ${c.headers.accept ?? ''}`] = { status: response.status, headers, body: body.toString('base64') };
  }
  return recorded;
}

async function startBare(specFile: string): Promise<{ origin: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [join(root, 'bench/bare-server.ts'), specFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  const origin = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').once('data', (line: string) => resolve(JSON.parse(line).url.replace(/\/$/, '')));
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  child.stdout.resume();
  return {
    origin,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

interface Measure {
  rps: number;
  p99: number;
  errors: number;
}

/** Mean req/s over the rounds, the median round's p99. */
function combine(measures: Measure[]): Measure {
  const p99s = measures.map((m) => m.p99).sort((a, b) => a - b);
  return {
    rps: measures.reduce((sum, m) => sum + m.rps, 0) / measures.length,
    p99: p99s[Math.floor(p99s.length / 2)]!,
    errors: measures.reduce((sum, m) => sum + m.errors, 0),
  };
}

/** Clients sending nested bodies from a process of their own; `stop` resolves with how many answers of each status they got. */
async function startNestedBodyClients(url: string): Promise<{ stop: () => Promise<Record<string, number>> }> {
  const child = spawn(process.execPath, [join(root, 'bench/nested-body-clients.ts'), url, String(NESTED_CLIENTS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.startsWith('ready\n')) resolve();
    });
    void exited.then(() => reject(new Error('the nested-body clients exited before they were ready')));
  });
  return {
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as Record<string, number>;
    },
  };
}

/** `GET /` alone and while the nested-body clients send, in alternating rounds after a warm-up. */
async function measureUnderNestedBodies(origin: string): Promise<{ alone: Measure; loaded: Measure; statuses: Record<string, number> }> {
  await measure(origin, home, 2);
  const alone: Measure[] = [];
  const loaded: Measure[] = [];
  const statuses: Record<string, number> = {};
  for (let round = 0; round < rounds; round++) {
    alone.push(await measure(origin, home, duration / rounds));
    const clients = await startNestedBodyClients(`${origin}/node/ethereum-sepolia/v2/demo`);
    loaded.push(await measure(origin, home, duration / rounds));
    for (const [status, count] of Object.entries(await clients.stop())) statuses[status] = (statuses[status] ?? 0) + count;
  }
  return { alone: combine(alone), loaded: combine(loaded), statuses };
}

async function measure(origin: string, c: Case, seconds: number): Promise<Measure> {
  const result = await autocannon({ url: origin + c.path, headers: c.headers, connections, duration: seconds });
  const unexpected = c.expect === 200 ? result.non2xx : result['2xx'];
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.timeouts + unexpected };
}

const { distDir, cleanup, source } = await pickDist();
const page = await pickPage(distDir);
const allCases: Case[] = [
  { name: 'GET /api/ip', path: '/api/ip', headers: {}, expect: 200 },
  { name: `GET twin ${page.twin}`, path: page.twin, headers: {}, expect: 200 },
  { name: `GET ${page.html} (Accept: text/markdown) -> 307`, path: page.html, headers: { accept: 'text/markdown' }, expect: 307 },
  { name: `GET HTML ${page.html}`, path: page.html, headers: { accept: 'text/html' }, expect: 200 },
];
const cases = allCases.filter((c) => c.name.includes(only));
const NESTED_CLIENTS = 8;
const home: Case = { name: 'GET /', path: '/', headers: { accept: 'text/html' }, expect: 200 };
const nestedName = `GET / while ${NESTED_CLIENTS} clients send 2 MB nested bodies with the demo key`;
let nested: Awaited<ReturnType<typeof measureUnderNestedBodies>> | null = null;

const scratch = await mkdtemp(join(tmpdir(), 'crucible-bench-'));
const ours = await startBuiltSite({ distDir, env: { REQUEST_LOG: 'off' } });
const specFile = join(scratch, 'recorded.json');
await writeFile(specFile, JSON.stringify(await record(ours.origin, cases)));
const bare = await startBare(specFile);

const rows: Array<{ c: Case; ours: Measure; bare: Measure }> = [];
try {
  for (const c of cases) {
    // Warm both (JIT, file cache), then alternate short rounds so that both sides see the same
    // machine: this host is shared, and load from elsewhere would otherwise favour one side.
    await measure(ours.origin, c, 2);
    await measure(bare.origin, c, 2);
    const oursRounds: Measure[] = [];
    const bareRounds: Measure[] = [];
    for (let round = 0; round < rounds; round++) {
      const first = round % 2 === 0;
      if (first) oursRounds.push(await measure(ours.origin, c, duration / rounds));
      bareRounds.push(await measure(bare.origin, c, duration / rounds));
      if (!first) oursRounds.push(await measure(ours.origin, c, duration / rounds));
    }
    const oursResult = combine(oursRounds);
    const bareResult = combine(bareRounds);
    rows.push({ c, ours: oursResult, bare: bareResult });
    console.log(
      `${c.name.padEnd(58)} crucible ${oursResult.rps.toFixed(0).padStart(6)} req/s p99 ${String(oursResult.p99).padStart(3)} ms | bare ${bareResult.rps.toFixed(0).padStart(6)} req/s p99 ${String(bareResult.p99).padStart(3)} ms | ratio ${(oursResult.rps / bareResult.rps).toFixed(2)}${oursResult.errors || bareResult.errors ? ` (unexpected: ${oursResult.errors} / ${bareResult.errors})` : ''}`,
    );
  }
  if (nestedName.includes(only)) {
    nested = await measureUnderNestedBodies(ours.origin);
    const { alone, loaded, statuses } = nested;
    console.log(
      `${nestedName}: alone ${alone.rps.toFixed(0)} req/s p99 ${alone.p99} ms | under the bodies ${loaded.rps.toFixed(0)} req/s p99 ${loaded.p99} ms | bodies answered ${JSON.stringify(statuses)}${alone.errors || loaded.errors ? ` (unexpected: ${alone.errors} / ${loaded.errors})` : ''}`,
    );
  }
} finally {
  await ours.stop();
  await bare.stop();
  await rm(scratch, { recursive: true, force: true });
  await cleanup();
}

if (only) process.exit(0);
const node = process.version;
const cpu = await cpuModel();
const table = [
  '| request | Crucible req/s | Crucible p99 (ms) | bare node:http req/s | bare p99 (ms) | ratio (req/s) |',
  '|---|---:|---:|---:|---:|---:|',
  ...rows.map(({ c, ours: o, bare: b }) => `| ${c.name} | ${o.rps.toFixed(0)} | ${o.p99} | ${b.rps.toFixed(0)} | ${b.p99} | ${(o.rps / b.rps).toFixed(2)} |`),
].join('\n');
const errors = rows.filter((r) => r.ours.errors || r.bare.errors).map((r) => `${r.c.name}: ${r.ours.errors} unexpected on Crucible, ${r.bare.errors} on bare`);
if (nested && (nested.alone.errors || nested.loaded.errors))
  errors.push(`${nestedName}: ${nested.alone.errors} unexpected alone, ${nested.loaded.errors} under the bodies`);
const answered = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .map(([status, count]) => `${count} × ${status}`)
    .join(', ');
const nestedTable = nested
  ? [
      `\`GET /\` alone, and while ${NESTED_CLIENTS} clients keep sending a 2 MB body of nested arrays (\`[[[…]]]\`) to \`/node/ethereum-sepolia/v2/demo\` from a process of their own (bench/nested-body-clients.ts), each again as soon as it is answered; ${rounds} alternating rounds of ${duration / rounds} s each, ${connections} connections for \`GET /\`. Such a body is refused unparsed once the demo key's bucket has paid for it: 400 at the first chunk that nests deeper than JSON_MAX_DEPTH, the rest unread, and 429 unread once the bucket is empty, each closing its connection (README, "Server limits"); \`reset\` counts uploads cut off by that close before their answer was read.`,
      '',
      '| request | alone req/s | alone p99 (ms) | under the nested bodies req/s | under the nested bodies p99 (ms) | nested bodies answered |',
      '|---|---:|---:|---:|---:|---|',
      `| GET / | ${nested.alone.rps.toFixed(0)} | ${nested.alone.p99} | ${nested.loaded.rps.toFixed(0)} | ${nested.loaded.p99} | ${answered(nested.statuses)} |`,
      '',
    ]
  : [];
const section = [
  '## Server',
  '',
  "Crucible's production server (`src/server/`) against a bare `node:http` server answering the same recorded bytes (same status, headers and body), measured side by side in one run.",
  '',
  `- Command: \`npm run bench:server\` (autocannon, ${connections} connections; per request type ${duration} s per side in ${rounds} alternating rounds after a 2 s warm-up; request logging off). Figures are the mean req/s and the median round's p99.`,
  `- Site: ${source}; twin \`${page.twin}\`, page \`${page.html}\``,
  `- Machine: ${cpus().length} CPUs (\`nproc\`), ${cpu}, Node ${node}; autocannon and both servers share the machine`,
  `- Date: ${new Date().toISOString().slice(0, 10)}`,
  '',
  table,
  '',
  ...nestedTable,
  "Notes: bodies go out unencoded (autocannon sends no Accept-Encoding). The machine is shared with other work, so runs differ by ±20%; the alternating rounds keep both sides under the same load. The `/api` path hands handlers an `ApiRequest` and writes a `BufferedResponse` without undici's Request object or body stream (src/api/buffered-response.ts): with a web `Request` built per request and the `Response` body read back through its stream, `/api/ip` measured 0.20–0.47 of bare here.",
  '',
  ...(errors.length ? [`Unexpected responses: ${errors.join('; ')}`, ''] : []),
].join('\n');

await writeBenchmarksSection('Server', section);
