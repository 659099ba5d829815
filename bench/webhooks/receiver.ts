import { createServer } from 'node:http';

// The webhook benchmark's receiver, a process of its own so its work is not the delivery
// process's: answers every POST 200 at once and prints one JSON line per POST with the time it
// arrived (ms since the epoch, this machine's clock as the benchmark's), the webhook, the first
// activity's block and how many activities it carried. Prints `listening <port>` first.

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const at = Date.now();
    response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { webhookId: string; event: { activity?: Array<{ blockNum: string }> } };
      const activity = body.event.activity ?? [];
      process.stdout.write(
        `${JSON.stringify({ at, webhookId: body.webhookId, block: activity[0] ? Number(activity[0].blockNum) : null, activities: activity.length })}\n`,
      );
    } catch (error) {
      process.stdout.write(`${JSON.stringify({ at, error: (error as Error).message })}\n`);
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
});
