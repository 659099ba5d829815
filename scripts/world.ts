// `npm run world -- swap --network <id> --pool <pool> --sell <token> --amount <whole tokens>`: a swap on
// a pool of the local world's price layer (src/chain/world/price-layer.ts), made by the world deployer
// against a running `npm start`, and the pool's price before and after. The devnets live inside the
// server, so the swap goes through the server's own node gateway, `{node_url}/v2/demo`, with
// transactions the world deployer signs (eth_sendRawTransaction); `--rpc-url` sends it elsewhere (an
// anvil of your own). Exit codes: 0 done, 1 failed, 2 bad input.
import { parseArgs } from 'node:util';
import { WORLD_POOLS, type WorldPool, worldTokenDecimals } from '../src/chain/world/price-layer.ts';
import { swapOnWorldPool, WorldSwapError, type PairReserves } from '../src/chain/world/swap.ts';
import { buildConfig } from '../src/config/config.ts';
import { formatDecimal } from '../src/prices/decimal.ts';
import { uniswapV2Quote } from '../src/prices/uniswap-v2.ts';
import { nodeUrlOf } from '../src/site/urls.ts';

const USAGE = `Usage: npm run world -- swap --network <id> --pool <pool> --sell <token> --amount <whole tokens> [--rpc-url <url>]

Sells --amount of --sell into a pool of the local world as the world deployer, and prints the
pool's price before and after. The pools, each pricing its first token in its second: ${WORLD_POOLS.map((pool) => pool.id).join(', ')}.

Options:
  --network   a local network of the running npm start (its gateway answers at {node_url}/v2/demo)
  --rpc-url   a JSON-RPC URL to use instead of the gateway (another devnet)
  --help      print this help

Example: npm run world -- swap --network ethereum-sepolia --pool forge-cusd --sell forge --amount 1000
`;

const options = {
  network: { type: 'string' },
  pool: { type: 'string' },
  sell: { type: 'string' },
  amount: { type: 'string' },
  'rpc-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

class UsageError extends Error {}

/** The pool's price (its base in its quote) at these reserves. */
function poolPrice(pool: WorldPool, reserves: PairReserves): string {
  const quote = uniswapV2Quote(reserves, { decimals0: worldTokenDecimals(pool.token0), decimals1: worldTokenDecimals(pool.token1) });
  if (!quote.ok) return quote.error.message;
  return formatDecimal(pool.base === pool.token0 ? quote.value.token0InToken1 : quote.value.token1InToken0);
}

async function main(argv: string[]): Promise<void> {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (positionals.join(' ') !== 'swap') throw new UsageError(positionals.length ? `unknown command: ${positionals.join(' ')}` : 'no command');
  const missing = [...(values.network || values['rpc-url'] ? [] : ['network']), ...(['pool', 'sell', 'amount'] as const).filter((name) => !values[name])];
  if (missing.length) throw new UsageError(`missing ${missing.map((name) => `--${name}`).join(', ')}`);

  const { siteOrigin, nodeDomain } = buildConfig();
  const rpcUrl = values['rpc-url'] ?? `${nodeUrlOf(values.network!, { siteOrigin, nodeDomain })}/v2/demo`;
  const result = await swapOnWorldPool(rpcUrl, { pool: values.pool!, sell: values.sell!, amount: values.amount! });
  const { pool, sold, bought } = result;
  const whole = (amount: bigint, token: typeof sold.token) => formatDecimal(amount * 10n ** BigInt(18 - worldTokenDecimals(token)));
  process.stdout.write(
    [
      `Sold ${whole(sold.amount, sold.token)} ${sold.token} for ${whole(bought.amount, bought.token)} ${bought.token} on ${pool.id} (${pool.address}).`,
      `1 ${pool.base} in ${pool.quote}: ${poolPrice(pool, result.before)} before, ${poolPrice(pool, result.after)} after.`,
      `Transactions: ${result.transactions.join(', ')}`,
      '',
    ].join('\n'),
  );
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError || (error instanceof WorldSwapError && error.code !== 'transaction_failed' && error.code !== 'insufficient_balance')) {
    process.stderr.write(`${error.message}\n\n${USAGE}`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`The swap failed: ${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}
