import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

// The webhook benchmarks' receiver (receiver.ts) as a process of its own, and what it reports of
// each POST: when it arrived, for which webhook, the first activity's block and how many activities.

export interface Post {
  at: number;
  webhookId: string;
  block: number | null;
  activities: number;
}

export async function startReceiverProcess() {
  const child: ChildProcess = spawn(process.execPath, [join(import.meta.dirname, 'receiver.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const posts: Post[] = [];
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the receiver exited with code ${code}`)));
    lines.on('line', (line) => {
      if (line.startsWith('listening ')) resolve(Number(line.slice('listening '.length)));
      else posts.push(JSON.parse(line) as Post);
    });
  });
  return {
    url: `http://127.0.0.1:${port}/hook`,
    posts,
    async waitFor(condition: (posts: readonly Post[]) => boolean) {
      while (!condition(posts)) await new Promise((resolve) => setTimeout(resolve, 20));
    },
    stop: () => child.kill('SIGTERM'),
  };
}
