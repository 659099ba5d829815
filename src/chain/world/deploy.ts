import { concat, createClient, createTestClient, http, parseEther, publicActions, type Address, type Hash, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { WORLD_DEPLOYER, WORLD_DEPLOYER_KEY } from './actors.ts';
import { stepCall, WORLD_HISTORY, type WorldCall, type WorldStep } from './history.ts';
import { CREATE2_DEPLOYER, WORLD_CONTRACTS } from './manifest.ts';
import { HOSTED_COLLECTIONS, worldBaseUri } from './metadata.ts';

// Installs the local world (manifest.ts, history.ts) on an anvil devnet. The devnets mine on an
// interval, so rather than wait a block per transaction, each round's transactions go into the pool
// together (explicit nonces and gas) and anvil_mine includes them at once.

export interface DeployWorldOptions {
  /** Origin of the site that serves /world/nft/: the hosted collections' base URIs point there. */
  siteOrigin: string;
}

export interface WorldDeployment {
  /** 'installed': deployed by this call; 'present': it was already there (only base URIs may have changed). */
  status: 'installed' | 'present';
  /** Transactions this call sent: 0 on a devnet where the world is already there with these base URIs. */
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

/** A world transaction failed: a bug in the world's data or contracts, never a state to live with. */
class WorldTransactionError extends Error {
  readonly code = 'world_transaction_failed';
}

// Enough ether for every transaction the world sends, with a wide margin.
const DEPLOYER_FUNDS = parseEther('1000');
const HOLDER_FUNDS = parseEther('10');
const PRIORITY_FEE = 1_000_000_000n;
/** Blocks mined for one round before its transactions count as stuck. */
const MAX_BLOCKS_PER_ROUND = 20;

type Client = ReturnType<typeof connect>;

const connect = (rpcUrl: string) => {
  const transport = http(rpcUrl, { batch: true });
  // `raw` for the calls whose answers viem's actions would not give as they are (a missing receipt is null, not an error).
  return createTestClient({ mode: 'anvil', transport })
    .extend(publicActions)
    .extend(() => ({ raw: createClient({ transport }).request }));
};

/**
 * Installs the world on the anvil at `rpcUrl`, or, where it is already there, only points the
 * hosted collections' base URIs at `siteOrigin` (a transaction only for a base URI that differs).
 */
export async function deployWorld(rpcUrl: string, options: DeployWorldOptions): Promise<WorldDeployment> {
  const client = connect(rpcUrl);
  const status = await worldStatus(client);
  if (status.missing.length && status.missing.length < status.expected) throw new PartialWorldError(status.missing);
  let transactions = 0;
  const sender = await createSender(client);
  if (status.missing.length) {
    await installCode(client);
    transactions += await sender.run(deployCalls());
    for (const round of WORLD_HISTORY) transactions += await sender.run(round.map(stepCall));
  }
  transactions += await sender.run((await baseUriSteps(client, options.siteOrigin)).map(stepCall));
  return { status: status.missing.length ? 'installed' : 'present', transactions };
}

/** What of the world is missing: code at a contract's address, or an actor's transactions (its nonce is behind the history). */
async function worldStatus(client: Client): Promise<{ missing: string[]; expected: number }> {
  const codes = await Promise.all(WORLD_CONTRACTS.map((contract) => client.getCode({ address: contract.address })));
  const missing: string[] = WORLD_CONTRACTS.filter((_, i) => !codes[i] || codes[i] === '0x').map((contract) => contract.id);
  const sends = sendsByActor();
  const nonces = await Promise.all([...sends.keys()].map((address) => client.getTransactionCount({ address })));
  [...sends].forEach(([address, count], i) => {
    if (nonces[i]! < count) missing.push(`${count - nonces[i]!} transactions of ${address}`);
  });
  return { missing, expected: WORLD_CONTRACTS.length + sends.size };
}

/** How many transactions each actor sends in a full install (base URI updates come on top). */
function sendsByActor(): Map<Address, number> {
  const sends = new Map<Address, number>([[WORLD_DEPLOYER, deployCalls().length]]);
  for (const step of WORLD_HISTORY.flat()) sends.set(step.from, (sends.get(step.from) ?? 0) + 1);
  return sends;
}

function deployCalls(): WorldCall[] {
  return WORLD_CONTRACTS.flatMap((contract) =>
    contract.install.via === 'create2'
      ? [{ from: WORLD_DEPLOYER, to: CREATE2_DEPLOYER, data: concat([contract.install.salt, contract.install.initCode]), label: `deploy ${contract.id}` }]
      : [],
  );
}

/** Code set directly (Multicall3), and the ether every actor spends on gas. */
async function installCode(client: Client): Promise<void> {
  const actors = [...sendsByActor().keys()];
  await Promise.all([
    ...WORLD_CONTRACTS.flatMap((contract) =>
      contract.install.via === 'set-code' ? [client.setCode({ address: contract.address, bytecode: contract.artifact.deployedBytecode })] : [],
    ),
    ...actors.map((address) => client.setBalance({ address, value: address === WORLD_DEPLOYER ? DEPLOYER_FUNDS : HOLDER_FUNDS })),
  ]);
}

async function baseUriSteps(client: Client, siteOrigin: string): Promise<WorldStep[]> {
  const collections = HOSTED_COLLECTIONS.map((id) => WORLD_CONTRACTS.find((contract) => contract.id === id)!);
  const current = await Promise.all(
    collections.map((contract) => client.readContract({ address: contract.address, abi: contract.artifact.abi, functionName: 'baseURI' }) as Promise<string>),
  );
  return HOSTED_COLLECTIONS.flatMap((collection, i) => {
    const uri = worldBaseUri(siteOrigin, collection);
    return current[i] === uri ? [] : [{ from: WORLD_DEPLOYER, action: 'set-base-uri' as const, collection, uri }];
  });
}

/**
 * Sends rounds of calls: the deployer's signed with its key, every other actor's through anvil's
 * impersonation (they have no keys). Returns the number of transactions sent.
 */
async function createSender(client: Client) {
  const deployer = privateKeyToAccount(WORLD_DEPLOYER_KEY);
  const chainId = await client.getChainId();
  const nonces = new Map<Address, number>();
  const nextNonce = async (address: Address) => {
    const nonce = nonces.get(address) ?? (await client.getTransactionCount({ address, blockTag: 'pending' }));
    nonces.set(address, nonce + 1);
    return nonce;
  };

  const sendOne = async (call: WorldCall, gas: bigint, maxFeePerGas: bigint, nonce: number): Promise<Hash> => {
    const fields = { to: call.to, data: call.data, gas, nonce, maxFeePerGas, maxPriorityFeePerGas: PRIORITY_FEE };
    if (call.from === WORLD_DEPLOYER) {
      const signed = await deployer.signTransaction({ ...fields, chainId, type: 'eip1559' });
      return client.sendRawTransaction({ serializedTransaction: signed });
    }
    return client.raw({
      method: 'eth_sendTransaction',
      params: [{ ...fields, from: call.from, gas: hex(gas), nonce: hex(nonce), maxFeePerGas: hex(maxFeePerGas), maxPriorityFeePerGas: hex(PRIORITY_FEE) }],
    });
  };

  return {
    async run(calls: WorldCall[]): Promise<number> {
      if (!calls.length) return 0;
      const impersonated = [...new Set(calls.map((call) => call.from))].filter((address) => address !== WORLD_DEPLOYER);
      await Promise.all(impersonated.map((address) => client.impersonateAccount({ address })));
      try {
        // Every call of a round is estimated on the state the previous rounds left (none depends on another of its round).
        const [gases, block] = await Promise.all([
          Promise.all(
            calls.map((call) =>
              client.estimateGas({ account: call.from, to: call.to, data: call.data }).catch((error: unknown) => {
                throw new WorldTransactionError(`${call.label} would fail: ${(error as Error).message}`);
              }),
            ),
          ),
          client.getBlock(),
        ]);
        const maxFeePerGas = (block.baseFeePerGas ?? 0n) * 3n + PRIORITY_FEE;
        // Nonces in call order, so each sender's calls keep their order.
        const numbered: number[] = [];
        for (const call of calls) numbered.push(await nextNonce(call.from));
        // A margin over each estimate, within the block gas limit (the airdrop alone takes most of a block).
        const gasFor = (i: number) => bigMin((gases[i]! * 6n) / 5n, block.gasLimit);
        const hashes = await Promise.all(calls.map((call, i) => sendOne(call, gasFor(i), maxFeePerGas, numbered[i]!)));
        await mineUntilIncluded(client, calls, hashes);
        return calls.length;
      } finally {
        await Promise.all(impersonated.map((address) => client.stopImpersonatingAccount({ address })));
      }
    },
  };
}

const hex = (value: bigint | number): Hex => `0x${value.toString(16)}`;
const bigMin = (a: bigint, b: bigint): bigint => (a < b ? a : b);

async function mineUntilIncluded(client: Client, calls: WorldCall[], hashes: Hash[]): Promise<void> {
  let pending = hashes.map((hash, i) => ({ hash, call: calls[i]! }));
  for (let blocks = 0; pending.length; blocks++) {
    if (blocks === MAX_BLOCKS_PER_ROUND)
      throw new WorldTransactionError(`not mined after ${blocks} blocks: ${pending.map(({ call }) => call.label).join('; ')}`);
    await client.mine({ blocks: 1 });
    const receipts = await Promise.all(pending.map(({ hash }) => client.raw({ method: 'eth_getTransactionReceipt', params: [hash] })));
    const reverted = pending.filter((_, i) => receipts[i] && receipts[i].status !== '0x1');
    if (reverted.length) throw new WorldTransactionError(`reverted: ${reverted.map(({ call }) => call.label).join('; ')}`);
    pending = pending.filter((_, i) => !receipts[i]);
  }
}
