import { encodeFunctionData, parseEther, type Address } from 'viem';
import { DEMO_WALLET, NATIVE_SENDERS } from './actors.ts';
import { ARTIFACTS, type ContractArtifact } from './artifacts.ts';
import { WORLD_HISTORY, type WorldCall } from './history.ts';
import { create2Install, WORLD_ADDRESSES } from './manifest.ts';
import { type AnvilClient, create2Call } from './sender.ts';

// The world's native layer (docs/token-data.md#crucible_getassettransfers): ether moving between
// its own senders and the demo wallet, so that every category of crucible_getAssetTransfers has
// data offline. Plain sends are external transfers; a
// contract that forwards the ether it is sent (contracts/ValueForwarder.sol) makes internal ones,
// among them one relayed through the forwarder itself and one refused by a token without a
// receive function, whose call reverts inside a transaction that succeeds (so it is never listed).
// deployWorld installs it as a layer of its own, so a devnet made before it gets it at its next start.

export interface WorldNativeContract {
  id: 'forwarder';
  artifact: ContractArtifact;
  address: Address;
  install: ReturnType<typeof create2Install>['install'];
  purpose: string;
}

export const VALUE_FORWARDER = {
  id: 'forwarder',
  artifact: ARTIFACTS.ValueForwarder,
  ...create2Install('forwarder', ARTIFACTS.ValueForwarder, []),
  purpose:
    'Forwards the ether it is sent to other addresses, each a call inside the transaction: the internal transfers of crucible_getAssetTransfers. relay sends through the forwarder itself; forwardAllowingRefusals goes on past a recipient that refuses, whose call reverts.',
} as const satisfies WorldNativeContract;

type ForwarderFunction = 'forward' | 'relay' | 'forwardAllowingRefusals';

/** One transaction of the layer: ether sent to an address, or through the forwarder to several. */
export type NativeStep = { from: Address; label: string } & (
  | { action: 'send'; to: Address; amount: bigint }
  | { action: ForwarderFunction; recipients: Address[]; amounts: bigint[] }
);

const { dan, eve } = NATIVE_SENDERS;
const demo = DEMO_WALLET;
const send = (label: string, from: Address, to: Address, ether: string): NativeStep => ({ label, from, action: 'send', to, amount: parseEther(ether) });
const through = (label: string, from: Address, action: ForwarderFunction, shares: ReadonlyArray<readonly [Address, string]>): NativeStep => ({
  label,
  from,
  action,
  recipients: shares.map(([to]) => to),
  amounts: shares.map(([, ether]) => parseEther(ether)),
});

/** What the layer gives each of its own senders before they send (anvil_setBalance, as the world's set-up funds its actors). */
const SENDER_FUNDS = parseEther('10');

/**
 * The layer's transactions in rounds, as the history's: each round mined before the next, a
 * sender's steps in order. Its own senders and the demo wallet send them; how far a devnet got is
 * read from their nonces (the demo wallet's beyond its part of the history).
 */
export const NATIVE_HISTORY: readonly (readonly NativeStep[])[] = [
  [
    send('dan sends the demo wallet 1.5 ether', dan, demo, '1.5'),
    send('eve sends dan 0.25 ether', eve, dan, '0.25'),
    send('the demo wallet sends eve 0.1 ether', demo, eve, '0.1'),
  ],
  [
    through('eve forwards 0.2 ether to the demo wallet and 0.05 to dan', eve, 'forward', [
      [demo, '0.2'],
      [dan, '0.05'],
    ]),
    through('dan relays 0.3 ether to the demo wallet through the forwarder itself', dan, 'relay', [[demo, '0.3']]),
    // FORGE has no receive function: that call reverts, the transaction succeeds, and 0.4 ether stays in the forwarder.
    through('eve forwards 0.1 ether to the demo wallet and 0.4 to FORGE, which refuses it', eve, 'forwardAllowingRefusals', [
      [demo, '0.1'],
      [WORLD_ADDRESSES.forge, '0.4'],
    ]),
  ],
];

/** The transaction a step sends. */
function nativeStepCall(step: NativeStep): WorldCall {
  if (step.action === 'send') return { from: step.from, to: step.to, data: '0x', value: step.amount, label: step.label };
  const value = step.amounts.reduce((sum, amount) => sum + amount, 0n);
  const data = encodeFunctionData({ abi: VALUE_FORWARDER.artifact.abi, functionName: step.action, args: [step.recipients, step.amounts] });
  return { from: step.from, to: VALUE_FORWARDER.address, data, value, label: step.label };
}

/**
 * The rounds of calls still needed, read from the devnet's state: the forwarder if it has no code,
 * and each sender's steps beyond those its nonce says it sent (the demo wallet's after its part of
 * the history). The layer's own senders get their ether here, once, before their first send.
 */
export async function nativeLayerRounds(client: AnvilClient): Promise<WorldCall[][]> {
  const before = new Map<Address, number>([[demo, WORLD_HISTORY.flat().filter((step) => step.from === demo).length]]);
  const senders = [...new Set(NATIVE_HISTORY.flat().map((step) => step.from))];
  const [code, nonces] = await Promise.all([
    client.getCode({ address: VALUE_FORWARDER.address }),
    Promise.all(senders.map((address) => client.getTransactionCount({ address }))),
  ]);
  const done = new Map(senders.map((address, i) => [address, Math.max(0, nonces[i]! - (before.get(address) ?? 0))]));
  const unfunded = await Promise.all(
    Object.values(NATIVE_SENDERS).map(async (address) => done.get(address) === 0 && (await client.getBalance({ address })) === 0n && address),
  );
  await Promise.all(unfunded.flatMap((address) => (address ? [client.setBalance({ address, value: SENDER_FUNDS })] : [])));
  const rounds = NATIVE_HISTORY.map((round) =>
    round.filter((step) => {
      const left = done.get(step.from)!;
      done.set(step.from, left - 1);
      return left <= 0;
    }),
  ).map((round) => round.map(nativeStepCall));
  const deploy = code && code !== '0x' ? [] : [create2Call(VALUE_FORWARDER)];
  // The forwarder is deployed with the first round, which does not call it.
  return [[...deploy, ...rounds[0]!], ...rounds.slice(1)].filter((round) => round.length > 0);
}
