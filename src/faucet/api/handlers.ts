import { describeCause } from '../cause.ts';
import { faucetErrorResponse } from '../../errors/faucet-body.ts';
import { faucetError } from '../errors.ts';
import type { FaucetSendResult, FaucetStatusResult } from '../results.ts';
import type { Faucet } from '../service.ts';
import type { RequestContext } from '../../api/operation.ts';
import type { FaucetHandlers } from './operations.ts';
import { jsonResponse } from '../../api/responses.ts';

// The faucet service (src/faucet/) behind the faucet operations (docs/website.md#faucet-send, docs/website.md#faucet-status). Inputs arrive
// validated (steps 1–3 of the send); every answer is 2.2 / 2.4 or a FaucetError from the one
// error table (src/errors/codes.ts). Answers depend on chain state and limits, so none is cached.

const uncached = { 'cache-control': 'no-store' };

export function faucetHandlers(faucet: Faucet): FaucetHandlers {
  return {
    send: async ({ params, body, context }) =>
      answer(
        'send',
        params.faucetId,
        await faucet.send({ faucetId: params.faucetId, address: body.address, turnstileToken: body.turnstileToken, ip: context.clientIp }),
        context,
      ),
    status: async ({ params, query, context }) =>
      answer(
        'status',
        params.faucetId,
        await faucet.status({ faucetId: params.faucetId, transactionHash: query.transactionHash, ip: context.clientIp }),
        context,
      ),
  };
}

function answer(operation: 'send' | 'status', faucetId: string, result: FaucetSendResult | FaucetStatusResult, context: RequestContext): Response {
  if (result.ok) return jsonResponse(result.body, { headers: uncached });
  const { ok: _ok, statusCode, cause, ...extras } = result;
  const { message } = extras;
  const error = faucetError(statusCode, extras);
  const { status } = error;
  // Refusals (4xx) are the caller's business and show in the request log. A fault (with its
  // cause) is an error; a faucet that cannot serve (nonce conflict, empty or deprecated wallet)
  // is worth a line for the operator.
  if (cause !== undefined || status === 409 || status >= 500) {
    context.log[cause !== undefined ? 'error' : 'info'](`faucet ${operation} answered ${statusCode}`, {
      requestId: context.requestId,
      faucetId,
      statusCode,
      ...(message ? { detail: message } : {}),
      ...(cause !== undefined ? { cause: describeCause(cause) } : {}),
    });
  }
  // The body takes the FaucetError fields of the failure; `cause` stays in the log.
  return faucetErrorResponse(error);
}
