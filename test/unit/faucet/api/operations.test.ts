import { describe, expect, it } from 'vitest';
import type { RequestContext } from '../../../../src/api/operation.ts';
import { faucetOperations, type FaucetHandlers } from '../../../../src/faucet/api/operations.ts';
import { createRouter } from '../../../../src/api/router.ts';
import { faucetIdSchema } from '../../../../src/api/schemas.ts';
import { jsonResponse } from '../../../../src/api/responses.ts';

const ids = ['ethereum-sepolia', 'base-sepolia'];
const seen: unknown[] = [];
const handlers: FaucetHandlers = {
  send: ({ params, body, context }) => {
    seen.push({ params, body, ip: context.clientIp });
    return jsonResponse({ ok: true });
  },
  status: ({ params, query }) => {
    seen.push({ params, query });
    return jsonResponse({ ok: true });
  },
};
const router = createRouter(faucetOperations(ids, faucetIdSchema(ids), handlers), { origin: 'https://crucible.dev' });
const context: RequestContext = { requestId: 'r', clientIp: '192.0.2.9', log: { info() {}, error() {} } };
const address = `0x${'a'.repeat(40)}`;
const hash = `0x${'b'.repeat(64)}`;

const send = (faucetId: string, body: string, type = 'application/json') =>
  router.handle(new Request(`https://crucible.dev/api/faucets/${faucetId}/send`, { method: 'POST', body, headers: { 'content-type': type } }), context);
const status = (faucetId: string, query: string) => router.handle(new Request(`https://crucible.dev/api/faucets/${faucetId}/status${query}`), context);

describe('faucet operations: input errors in docs/website.md#faucet-error-codes precedence', () => {
  it.each([
    ['unparseable body', 'ethereum-sepolia', '{', 'application/json', 'invalid_request_body'],
    ['non-JSON media type', 'ethereum-sepolia', JSON.stringify({ address, turnstileToken: 't' }), 'text/plain', 'invalid_request_body'],
    ['body not an object', 'ethereum-sepolia', '[1]', 'application/json', 'invalid_request_body'],
    ['oversized body', 'ethereum-sepolia', JSON.stringify({ address, turnstileToken: 'x'.repeat(9000) }), 'application/json', 'invalid_request_body'],
    ['bad body beats unknown faucet', 'nope', '{', 'application/json', 'invalid_request_body'],
    ['unknown faucet beats bad address', 'nope', JSON.stringify({ address: 'x' }), 'application/json', 'unsupported_faucet'],
    ['missing address', 'base-sepolia', JSON.stringify({ turnstileToken: 't' }), 'application/json', 'missing_address'],
    ['malformed address', 'base-sepolia', JSON.stringify({ address: '0x123', turnstileToken: 't' }), 'application/json', 'invalid_address'],
    ['address not a string', 'base-sepolia', JSON.stringify({ address: 12, turnstileToken: 't' }), 'application/json', 'invalid_address'],
    ['missing token', 'base-sepolia', JSON.stringify({ address }), 'application/json', 'missing_turnstile'],
    ['empty token', 'base-sepolia', JSON.stringify({ address, turnstileToken: '' }), 'application/json', 'missing_turnstile'],
    ['token not a string', 'base-sepolia', JSON.stringify({ address, turnstileToken: 5 }), 'application/json', 'invalid_request_body'],
  ])('%s -> 400 %s', async (_name, faucetId, body, type, statusCode) => {
    const response = await send(faucetId, body, type);
    expect(response.status).toBe(400);
    const json = await response.json();
    expect(json.statusCode).toBe(statusCode);
    expect(json.hint).toBeTruthy();
    if (statusCode === 'unsupported_faucet') expect(json.supportedChains).toEqual(ids);
  });

  it('hands valid input to the send handler', async () => {
    seen.length = 0;
    const response = await send('base-sepolia', JSON.stringify({ address, turnstileToken: 'tok' }));
    expect(response.status).toBe(200);
    expect(seen).toEqual([{ params: { faucetId: 'base-sepolia' }, body: { address, turnstileToken: 'tok' }, ip: '192.0.2.9' }]);
  });

  it.each([
    ['unknown faucet', 'nope', `?transactionHash=${hash}`, 'unsupported_faucet'],
    ['missing hash', 'base-sepolia', '', 'invalid_transaction_hash'],
    ['short hash', 'base-sepolia', '?transactionHash=0x12', 'invalid_transaction_hash'],
    ['repeated hash', 'base-sepolia', `?transactionHash=${hash}&transactionHash=${hash}`, 'invalid_transaction_hash'],
    ['malformed escape', 'base-sepolia', '?transactionHash=%zz', 'invalid_transaction_hash'],
  ])('status: %s -> 400 %s', async (_name, faucetId, query, statusCode) => {
    const response = await status(faucetId, query);
    expect(response.status).toBe(400);
    expect((await response.json()).statusCode).toBe(statusCode);
  });

  it('hands a valid hash to the status handler; 405 for other methods', async () => {
    seen.length = 0;
    expect((await status('ethereum-sepolia', `?transactionHash=${hash}`)).status).toBe(200);
    expect(seen).toEqual([{ params: { faucetId: 'ethereum-sepolia' }, query: { transactionHash: hash } }]);
    const wrong = await router.handle(new Request('https://crucible.dev/api/faucets/ethereum-sepolia/send'), context);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
  });
});
