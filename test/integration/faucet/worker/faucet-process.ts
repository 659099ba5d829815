import { startFaucetRuntime } from '../../../../src/runtime/faucet.ts';
import type { FaucetSendInput } from '../../../../src/faucet/service.ts';

// One faucet server process for redis-processes.test.ts: the runtime built from this process's
// environment (REDIS_URL, RPC_URL_*, DATABASE_PATH), driven over the IPC channel.

type Request = { id: number; send: FaucetSendInput } | { id: number; ledger: true } | { id: number; close: true };

const runtime = await startFaucetRuntime();
process.on('message', async (request: Request) => {
  if ('send' in request) {
    const result = await runtime.faucet.send(request.send);
    // `cause` is an Error (not serialisable); the statusCode is what the test asserts on.
    const { cause: _cause, ...reply } = result as typeof result & { cause?: unknown };
    process.send!({ id: request.id, result: reply });
  } else if ('ledger' in request) {
    const rows = await runtime.store.listDrips();
    process.send!({ id: request.id, result: rows.map((row) => ({ ...row, amountWei: row.amountWei.toString() })) });
  } else {
    await runtime.close();
    process.send!({ id: request.id, result: 'closed' }, () => process.exit(0));
  }
});
process.send!({ ready: true });
