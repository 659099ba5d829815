import { faucetErrorBody } from './faucet-errors.ts';
import type { FaucetHandlers } from './operations/faucet.ts';
import { jsonResponse } from './responses.ts';

// PLACEHOLDER until the faucet service (src/faucet/) is wired in src/api/site-api.ts: keeps the
// routing and the OpenAPI document complete. Inputs are still validated by the operations.

const notConfigured = 'The faucet is not configured on this server yet.';
const uncached = { 'cache-control': 'no-store' };

export const placeholderFaucetHandlers: FaucetHandlers = {
  send: () => jsonResponse(faucetErrorBody('faucet_request_failed', { message: notConfigured }), { status: 503, headers: uncached }),
  status: () => jsonResponse(faucetErrorBody('status_check_failed', { message: notConfigured }), { status: 500, headers: uncached }),
};
