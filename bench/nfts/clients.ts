import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Agent, request } from 'node:http';
import autocannon from 'autocannon';
import { decodeFunctionResult, encodeFunctionData, getAddress, parseAbi, type Address, type Hex } from 'viem';

// The NFT benchmarks' clients, each run in a process of its own (`node bench/nfts/clients.ts
// <job file>`, the job as JSON; one JSON line of figures on stdout) so that neither shares an event loop with the
// server or with the run's bookkeeping. Each job warms up, then is timed:
// - api: autocannon GETs the getNFTs pages, every connection cycling through them in order, one
//   request in flight per connection; a page's time is its response's (hrtime, ms).
// - naive: what a client without the API does for a page of 100 tokens it already knows: per token,
//   `ownerOf` and `tokenURI` as two eth_calls through the gateway (one JSON-RPC request each), then
//   the document at that URI from the metadata server; all of a page's tokens at once. `connections`
//   clients read pages at the same time over `connections` keep-alive sockets per origin.
// - naive-owners: what a client without the API does for a contract's owners: `ownerOf` of every
//   token through the gateway, `connections` calls in flight, grouped by owner; one answer a pass.

export interface NaiveToken {
  contract: Address;
  tokenId: string;
  /** The name the document must give (checked on every read). */
  name: string;
  /** The token's owner, checked on every read; the job's `owner` when absent. */
  owner?: Address;
}

export type ClientJob = { warmUpSeconds: number; seconds: number; connections: number } & (
  | { kind: 'api'; origin: string; paths: string[] }
  | { kind: 'naive'; rpcUrl: string; owner: Address; pages: NaiveToken[][] }
  /** A contract's owners the naive way: `ownerOf` of each of its tokens, `connections` at once, grouped by owner; one answer per pass. */
  | { kind: 'naive-owners'; rpcUrl: string; contract: Address; tokenIds: string[]; owners: number }
);

export interface ClientResult {
  /** Milliseconds per page answered (a getNFTs response, or a naive page read in full), in the order they ended. */
  times: number[];
  /** The timed run's length, from its start to its last answer. */
  seconds: number;
  failures: number;
  firstFailure: string | null;
}

const execFileAsync = promisify(execFile);

/** Runs `job` in a child process and resolves with its figures; the job goes in a file (its token lists outgrow a command line). */
export async function runClient(job: ClientJob): Promise<ClientResult> {
  const folder = await mkdtemp(join(tmpdir(), 'crucible-bench-client-'));
  try {
    const file = join(folder, 'job.json');
    await writeFile(file, JSON.stringify(job));
    const { stdout } = await execFileAsync(process.execPath, [import.meta.filename, file], { maxBuffer: 64 * 1024 * 1024 });
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as ClientResult;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function apiRun(job: Extract<ClientJob, { kind: 'api' }>, seconds: number): Promise<ClientResult> {
  const times: number[] = [];
  const started = performance.now();
  // `requests`: a sequence each connection cycles through (bench/autocannon.d.ts types the options the other benchmarks use).
  const options = { url: job.origin, connections: job.connections, duration: seconds, requests: job.paths.map((path) => ({ method: 'GET', path })) };
  const instance = autocannon(options as Parameters<typeof autocannon>[0]) as ReturnType<typeof autocannon> & {
    on(event: 'response', listener: (client: unknown, status: number, bytes: number, ms: number) => void): void;
  };
  instance.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) times.push(ms);
  });
  const result = await instance;
  const failures = result.errors + result.timeouts + result.non2xx;
  return {
    times,
    seconds: (performance.now() - started) / 1000,
    failures,
    firstFailure: failures ? `${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts` : null,
  };
}

const erc721 = parseAbi(['function ownerOf(uint256 id) view returns (address)', 'function tokenURI(uint256 id) view returns (string)']);

/** One HTTP exchange on `agent`; rejects on a status other than 200. */
function exchange(agent: Agent, url: string, body?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const headers = body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    const req = request(url, { agent, method: body === undefined ? 'GET' : 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`${url.split('?')[0]} answered HTTP ${res.statusCode}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function naiveRun(job: Extract<ClientJob, { kind: 'naive' }>, seconds: number): Promise<ClientResult> {
  const rpcAgent = new Agent({ keepAlive: true, maxSockets: job.connections });
  const metadataAgent = new Agent({ keepAlive: true, maxSockets: job.connections });
  const owner = getAddress(job.owner);
  const ethCall = async (contract: Address, functionName: 'ownerOf' | 'tokenURI', tokenId: string) => {
    const data = encodeFunctionData({ abi: erc721, functionName, args: [BigInt(tokenId)] });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: contract, data }, 'latest'] });
    const answer = JSON.parse(await exchange(rpcAgent, job.rpcUrl, body)) as { result?: Hex; error?: { message: string } };
    if (!answer.result) throw new Error(`eth_call ${functionName}: ${answer.error?.message ?? 'no result'}`);
    return decodeFunctionResult({ abi: erc721, functionName, data: answer.result });
  };
  const readToken = async (token: NaiveToken) => {
    const [holder, uri] = await Promise.all([ethCall(token.contract, 'ownerOf', token.tokenId), ethCall(token.contract, 'tokenURI', token.tokenId)]);
    if (getAddress(holder as Address) !== (token.owner ? getAddress(token.owner) : owner)) throw new Error(`ownerOf ${token.tokenId} is ${holder}`);
    const document = JSON.parse(await exchange(metadataAgent, uri as string)) as { name?: string };
    if (document.name !== token.name) throw new Error(`the document of ${token.contract} ${token.tokenId} names ${document.name}`);
  };
  const times: number[] = [];
  let failures = 0;
  let firstFailure: string | null = null;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: job.connections }, async (_, client) => {
      for (let page = client % job.pages.length; performance.now() < deadline; page = (page + 1) % job.pages.length) {
        const pageStarted = performance.now();
        try {
          await Promise.all(job.pages[page]!.map(readToken));
          times.push(performance.now() - pageStarted);
        } catch (error) {
          failures++;
          firstFailure ??= error instanceof Error ? error.message : String(error);
        }
      }
    }),
  );
  rpcAgent.destroy();
  metadataAgent.destroy();
  return { times, seconds: (performance.now() - started) / 1000, failures, firstFailure };
}

/** One answer is every token's `ownerOf`, `connections` calls in flight over as many keep-alive sockets, grouped by owner. */
async function naiveOwnersRun(job: Extract<ClientJob, { kind: 'naive-owners' }>, seconds: number): Promise<ClientResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: job.connections });
  const ownerOf = async (tokenId: string): Promise<Address> => {
    const data = encodeFunctionData({ abi: erc721, functionName: 'ownerOf', args: [BigInt(tokenId)] });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: job.contract, data }, 'latest'] });
    const answer = JSON.parse(await exchange(agent, job.rpcUrl, body)) as { result?: Hex; error?: { message: string } };
    if (!answer.result) throw new Error(`eth_call ownerOf: ${answer.error?.message ?? 'no result'}`);
    return decodeFunctionResult({ abi: erc721, functionName: 'ownerOf', data: answer.result }) as Address;
  };
  const times: number[] = [];
  let failures = 0;
  let firstFailure: string | null = null;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  while (performance.now() < deadline || times.length + failures === 0) {
    const answerStarted = performance.now();
    try {
      const owners = new Map<Address, string[]>();
      let next = 0;
      await Promise.all(
        Array.from({ length: job.connections }, async () => {
          while (next < job.tokenIds.length) {
            const tokenId = job.tokenIds[next++]!;
            const owner = await ownerOf(tokenId);
            owners.set(owner, [...(owners.get(owner) ?? []), tokenId]);
          }
        }),
      );
      if (owners.size !== job.owners) throw new Error(`${owners.size} owners, not ${job.owners}`);
      times.push(performance.now() - answerStarted);
    } catch (error) {
      failures++;
      firstFailure ??= error instanceof Error ? error.message : String(error);
    }
  }
  agent.destroy();
  return { times, seconds: (performance.now() - started) / 1000, failures, firstFailure };
}

if (import.meta.main) {
  const job = JSON.parse(await readFile(process.argv[2]!, 'utf8')) as ClientJob;
  const run = (seconds: number) => (job.kind === 'api' ? apiRun(job, seconds) : job.kind === 'naive' ? naiveRun(job, seconds) : naiveOwnersRun(job, seconds));
  await run(job.warmUpSeconds);
  process.stdout.write(`${JSON.stringify(await run(job.seconds))}\n`);
}
