import { parseEther, type Address } from 'viem';
import { WORLD_DEPLOYER } from './actors.ts';
import { heartbeatCalls } from './feed-heartbeat.ts';
import { stepCall, WORLD_HISTORY, type WorldCall, type WorldStep } from './history.ts';
import { WORLD_CONTRACTS } from './manifest.ts';
import { marketLayerCalls } from './market-install.ts';
import { HOSTED_COLLECTIONS, worldBaseUri } from './metadata.ts';
import { nativeLayerRounds } from './native-layer.ts';
import { priceLayerRounds } from './price-layer-install.ts';
import { type AnvilClient, connectAnvil, create2Call, createWorldSender } from './sender.ts';

// Installs the local world on an anvil devnet in layers: its contracts and history (manifest.ts,
// history.ts), all at once on an empty chain; then its price layer (price-layer.ts), its
// marketplace (market.ts) and its native layer (native-layer.ts), each completed from whatever of it
// the chain holds, so a devnet made
// before a layer gets it at its next start; then the feeds' heartbeat (feed-heartbeat.ts).

export interface DeployWorldOptions {
  /** Origin of the site that serves /world/nft/: the hosted collections' base URIs point there. */
  siteOrigin: string;
  /** false: leave out the price layer and the heartbeat, the world as devnets had it before its price layer (tests of such devnets). Default true. */
  priceLayer?: boolean;
  /** false: leave out the marketplace and its history, the world as devnets had it before them (tests of such devnets). Default true. */
  market?: boolean;
  /** false: leave out the native layer, the world as devnets had it before it (tests of such devnets). Default true. */
  nativeLayer?: boolean;
  /** The clock the heartbeat judges the feeds' age by, in ms since the epoch (Date.now). */
  now?: () => number;
}

export interface WorldDeployment {
  /** 'installed': deployed by this call; 'present': it was already there (only base URIs may have changed). */
  status: 'installed' | 'present';
  /** The price layer: 'installed' if this call sent any of it (all, or what an older devnet lacked), 'present' if it was whole, 'left-out' with priceLayer false. */
  priceLayer: 'installed' | 'present' | 'left-out';
  /** The marketplace layer, likewise: 'installed' if this call sent any of its history, 'present' if it was whole, 'left-out' with market false. */
  market: 'installed' | 'present' | 'left-out';
  /** The native layer, likewise. */
  nativeLayer: 'installed' | 'present' | 'left-out';
  /** Transactions this call sent: 0 on a devnet where the world is already there with these base URIs and fresh feeds. */
  transactions: number;
}

/** The devnet holds part of the world (a start was interrupted, and the state file kept what it had done). */
export class PartialWorldError extends Error {
  readonly code = 'partial_world';
  readonly missing: string[];
  constructor(missing: string[]) {
    super(
      `this devnet holds part of the local world, or another version of it (missing: ${missing.join(', ')}); start it from an empty chain (delete its state file)`,
    );
    this.missing = missing;
  }
}

// Enough ether for every transaction the world sends and the ether its WETH seed wraps, with a wide margin.
const DEPLOYER_FUNDS = parseEther('1000');
const HOLDER_FUNDS = parseEther('10');
/**
 * Installs the world on the anvil at `rpcUrl`, or, where it is already there, only points the
 * hosted collections' base URIs at `siteOrigin` (a transaction only for a base URI that differs),
 * completes the price layer and gives stale feeds their heartbeat.
 */
export async function deployWorld(rpcUrl: string, options: DeployWorldOptions): Promise<WorldDeployment> {
  const client = connectAnvil(rpcUrl);
  const status = await worldStatus(client);
  if (status.missing.length && status.missing.length < status.expected) throw new PartialWorldError(status.missing);
  let transactions = 0;
  const sender = await createWorldSender(client);
  if (status.missing.length) {
    await installCode(client);
    transactions += await sender.run(deployCalls());
    for (const round of WORLD_HISTORY) transactions += await sender.run(round.map(stepCall));
  }
  transactions += await sender.run((await baseUriSteps(client, options.siteOrigin)).map(stepCall));
  let priceLayer: WorldDeployment['priceLayer'] = 'left-out';
  if (options.priceLayer ?? true) {
    const rounds = await priceLayerRounds(client);
    for (const round of rounds) transactions += await sender.run(round);
    priceLayer = rounds.length ? 'installed' : 'present';
  }
  let market: WorldDeployment['market'] = 'left-out';
  if (options.market ?? true) {
    const calls = await marketLayerCalls(client);
    // One transaction a round: each listing gets the number the history gives it.
    for (const call of calls) transactions += await sender.run([call]);
    market = calls.length ? 'installed' : 'present';
  }
  let nativeLayer: WorldDeployment['nativeLayer'] = 'left-out';
  if (options.nativeLayer ?? true) {
    const rounds = await nativeLayerRounds(client);
    for (const round of rounds) transactions += await sender.run(round);
    nativeLayer = rounds.length ? 'installed' : 'present';
  }
  if (options.priceLayer ?? true) transactions += await sender.run(await heartbeatCalls(client, (options.now ?? Date.now)()));
  return { status: status.missing.length ? 'installed' : 'present', priceLayer, market, nativeLayer, transactions };
}

/** What of the world is missing: code at a contract's address, or an actor's transactions (its nonce is behind the history). */
async function worldStatus(client: AnvilClient): Promise<{ missing: string[]; expected: number }> {
  const codes = await Promise.all(WORLD_CONTRACTS.map((contract) => client.getCode({ address: contract.address })));
  const missing: string[] = WORLD_CONTRACTS.filter((_, i) => !codes[i] || codes[i] === '0x').map((contract) => contract.id);
  const sends = sendsByActor();
  const nonces = await Promise.all([...sends.keys()].map((address) => client.getTransactionCount({ address })));
  [...sends].forEach(([address, count], i) => {
    if (nonces[i]! < count) missing.push(`${count - nonces[i]!} transactions of ${address}`);
  });
  return { missing, expected: WORLD_CONTRACTS.length + sends.size };
}

/** How many transactions each actor sends in a full install of the contracts and history (base URI updates and the price layer come on top). */
function sendsByActor(): Map<Address, number> {
  const sends = new Map<Address, number>([[WORLD_DEPLOYER, deployCalls().length]]);
  for (const step of WORLD_HISTORY.flat()) sends.set(step.from, (sends.get(step.from) ?? 0) + 1);
  return sends;
}

function deployCalls(): WorldCall[] {
  return WORLD_CONTRACTS.flatMap((contract) => (contract.install.via === 'create2' ? [create2Call({ ...contract, install: contract.install })] : []));
}

/** Code set directly (Multicall3), and the ether every actor spends on gas. */
async function installCode(client: AnvilClient): Promise<void> {
  const actors = [...sendsByActor().keys()];
  await Promise.all([
    ...WORLD_CONTRACTS.flatMap((contract) =>
      contract.install.via === 'set-code' ? [client.setCode({ address: contract.address, bytecode: contract.artifact.deployedBytecode })] : [],
    ),
    ...actors.map((address) => client.setBalance({ address, value: address === WORLD_DEPLOYER ? DEPLOYER_FUNDS : HOLDER_FUNDS })),
  ]);
}

async function baseUriSteps(client: AnvilClient, siteOrigin: string): Promise<WorldStep[]> {
  const collections = HOSTED_COLLECTIONS.map((id) => WORLD_CONTRACTS.find((contract) => contract.id === id)!);
  const current = await Promise.all(
    collections.map((contract) => client.readContract({ address: contract.address, abi: contract.artifact.abi, functionName: 'baseURI' }) as Promise<string>),
  );
  return HOSTED_COLLECTIONS.flatMap((collection, i) => {
    const uri = worldBaseUri(siteOrigin, collection);
    return current[i] === uri ? [] : [{ from: WORLD_DEPLOYER, action: 'set-base-uri' as const, collection, uri }];
  });
}
