import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

// The baseline of `npm run bench:server`: bare node:http answering recorded responses (same
// status, headers and body bytes as the Crucible server gave), looked up by URL and Accept.

interface Recorded {
  status: number;
  headers: Record<string, string>;
  body: string; // base64
}

const recorded = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Record<string, Recorded>;
const answers = new Map(Object.entries(recorded).map(([url, r]) => [url, { ...r, bytes: Buffer.from(r.body, 'base64') }]));

const server = createServer((req, res) => {
  const answer = answers.get(`${req.url} ${req.headers.accept ?? ''}`);
  if (!answer) {
    res.writeHead(404);
    res.end();
    return;
  }
  res.writeHead(answer.status, answer.headers);
  res.end(answer.bytes);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(JSON.stringify({ msg: 'listening', url: `http://127.0.0.1:${address.port}/` }));
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
