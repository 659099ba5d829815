import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Agent, request } from 'node:http';
import autocannon from 'autocannon';
import { decodeFunctionResult, encodeFunctionData, getAddress, parseAbi, type Address, type Hex } from 'viem';

// The NFT benchmark's two clients, each run in a process of its own (`node bench/nfts/clients.ts
// <job as JSON>`, one JSON line of figures on stdout) so that neither shares an event loop with the
// server or with the run's bookkeeping. Each job warms up, then is timed:
// - api: autocannon GETs the getNFTs pages, every connection cycling through them in order, one
//   request in flight per connection; a page's time is its response's (hrtime, ms).
// - naive: what a client without the API does for a page of 100 tokens it already knows: per token,
//   `ownerOf` and `tokenURI` as two eth_calls through the gateway (one JSON-RPC request each), then
//   the document at that URI from the metadata server; all of a page's tokens at once. `connections`
//   clients read pages at the same time over `connections` keep-alive sockets per origin.

export interface NaiveToken {
  contract: Address;
  tokenId: string;
  /** The name the document must give (checked on every read). */
  name: string;
}

export type ClientJob = { warmUpSeconds: number; seconds: number; connections: number } & (
  | { kind: 'api'; origin: string; paths: string[] }
  | { kind: 'naive'; rpcUrl: string; owner: Address; pages: NaiveToken[][] }
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

/** Runs `job` in a child process and resolves with its figures. */
export async function runClient(job: ClientJob): Promise<ClientResult> {
  const { stdout } = await execFileAsync(process.execPath, [import.meta.filename, JSON.stringify(job)], { maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as ClientResult;
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
    if (getAddress(holder as Address) !== owner) throw new Error(`ownerOf ${token.tokenId} is ${holder}`);
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

if (import.meta.main) {
  const job = JSON.parse(process.argv[2]!) as ClientJob;
  const run = (seconds: number) => (job.kind === 'api' ? apiRun(job, seconds) : naiveRun(job, seconds));
  await run(job.warmUpSeconds);
  process.stdout.write(`${JSON.stringify(await run(job.seconds))}\n`);
}
