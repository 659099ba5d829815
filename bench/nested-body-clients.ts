import { request, Agent } from 'node:http';

// `node bench/nested-body-clients.ts <url> <clients>`: each client POSTs a 2 MB body of nested
// arrays (`[[[…]]]`, under the gateway's 2 MiB limit) to `url` again as soon as it is answered,
// until SIGTERM; then prints how many answers of each status it got (and uploads reset before an
// answer), as one JSON line. A process of its own, so that the benchmark's measuring client does
// not share a thread with it.

const [url, clientsArgument] = process.argv.slice(2);
if (!url) throw new Error('usage: node bench/nested-body-clients.ts <url> <clients>');
const clients = Number(clientsArgument ?? '8');
const body = Buffer.from(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`);
const agent = new Agent({ keepAlive: true, maxSockets: clients });
const statuses: Record<string, number> = {};
let sending = true;

function send(): Promise<void> {
  return new Promise((resolve) => {
    let answered = false;
    const count = (outcome: string) => {
      statuses[outcome] = (statuses[outcome] ?? 0) + 1;
    };
    const post = request(url!, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': body.byteLength } }, (response) => {
      answered = true;
      count(String(response.statusCode));
      response.resume().once('end', resolve);
    });
    // Refused unread, the connection is closed: the upload may end in a reset instead of an answer.
    post.once('error', () => {
      if (!answered) count('reset');
      resolve();
    });
    post.end(body);
  });
}

async function client(): Promise<void> {
  while (sending) await send();
}

const running = Array.from({ length: clients }, client);
process.once('SIGTERM', () => {
  sending = false;
  void Promise.all(running).then(() => {
    process.stdout.write(`${JSON.stringify(statuses)}\n`);
    agent.destroy();
  });
});
process.stdout.write('ready\n');
