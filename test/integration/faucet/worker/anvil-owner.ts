import { startAnvil } from '../../../../src/chain/anvil.ts';

// A process that owns an anvil, for devnets.test.ts: reports the anvil's pid, then waits to be
// signalled, or exits by itself when told to.

const anvil = await startAnvil({ chainId: 31337 });
process.on('message', (message: string) => {
  if (message === 'exit') process.exit(0);
});
process.send!({ anvilPid: anvil.pid });
