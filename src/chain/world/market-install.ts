import { encodeFunctionData, erc20Abi, zeroAddress, type Abi, type Address } from 'viem';
import type { WorldCall } from './history.ts';
import { worldContract } from './manifest.ts';
import { MARKET_ALLOWANCE, type MarketCurrency, type MarketStep, WORLD_MARKET_HISTORY, WORLD_MARKETPLACE, worldMarket } from './market.ts';
import { type AnvilClient, create2Call } from './sender.ts';

// What installing the marketplace layer (market.ts) still takes on a devnet, read from its state: a
// devnet made before the layer gets all of it, one whose start stopped part-way gets the rest, one
// that has it gets nothing. Each step is one transaction, and whether it happened is read from a fact
// only it makes true and no later step makes false (code at the address, an approval, the number of
// listings, a listing cancelled, how much of a listing is sold, a token gone from its seller), so the
// first step not done is where the history resumes.

const marketAbi = WORLD_MARKETPLACE.artifact.abi;
const listingsById = new Map(worldMarket().listings.map((listing) => [listing.id, listing]));

/** The calls of the marketplace's history still to send, in order; none when the layer is whole. */
export async function marketLayerCalls(client: AnvilClient): Promise<WorldCall[]> {
  const steps = WORLD_MARKET_HISTORY;
  if (((await client.getCode({ address: WORLD_MARKETPLACE.address })) ?? '0x') === '0x') return steps.map(callOf);
  const soldBy = soldAfterEachStep();
  const done = (index: number) => isDone(client, steps[index]!, soldBy[index]!);
  if (await done(steps.length - 1)) return [];
  let first = 1;
  while (await done(first)) first++;
  return steps.slice(first).map(callOf);
}

/** For each step, how much of its listing is sold once it has run (buys only; 0 elsewhere). */
function soldAfterEachStep(): bigint[] {
  const sold = new Map<bigint, bigint>();
  return WORLD_MARKET_HISTORY.map((step) => {
    if (step.action !== 'buy') return 0n;
    const total = (sold.get(step.listing) ?? 0n) + step.quantity;
    sold.set(step.listing, total);
    return total;
  });
}

type ListingTuple = readonly [Address, number, Address, bigint, bigint, bigint, Address, bigint, boolean];

async function isDone(client: AnvilClient, step: MarketStep, soldAfter: bigint): Promise<boolean> {
  const market = <T>(functionName: string, args: readonly unknown[] = []) =>
    client.readContract({ address: WORLD_MARKETPLACE.address, abi: marketAbi, functionName, args }) as Promise<T>;
  const listing = (id: bigint) => market<ListingTuple>('listings', [id]);
  switch (step.action) {
    case 'deploy':
      return ((await client.getCode({ address: WORLD_MARKETPLACE.address })) ?? '0x') !== '0x';
    case 'set-royalty': {
      const [receiver, bps] = await market<readonly [Address, number]>('royalties', [worldContract(step.collection).address]);
      return receiver === step.receiver && bps === step.bps;
    }
    case 'approve-collection': {
      const { address, artifact } = worldContract(step.collection);
      return client.readContract({
        address,
        abi: artifact.abi,
        functionName: 'isApprovedForAll',
        args: [step.from, WORLD_MARKETPLACE.address],
      }) as Promise<boolean>;
    }
    case 'approve-currency':
      return (
        (await client.readContract({
          address: worldContract(step.token).address,
          abi: erc20Abi,
          functionName: 'allowance',
          args: [step.from, WORLD_MARKETPLACE.address],
        })) === MARKET_ALLOWANCE
      );
    case 'list':
      return (await market<bigint>('listingCount')) >= step.listing;
    case 'cancel':
      return (await listing(step.listing))[8];
    case 'buy':
      return (await listing(step.listing))[5] >= soldAfter;
    case 'transfer': {
      const { address, artifact } = worldContract(step.collection);
      return (await client.readContract({ address, abi: artifact.abi, functionName: 'ownerOf', args: [step.tokenId] })) !== step.from;
    }
  }
}

const currencyAddress = (currency: MarketCurrency): Address => (currency === 'native' ? zeroAddress : worldContract(currency).address);

/** The transaction a step sends. */
function callOf(step: MarketStep): WorldCall {
  const to = (address: Address, abi: Abi, functionName: string, args: readonly unknown[], label: string, value?: bigint): WorldCall => ({
    from: step.from,
    to: address,
    data: encodeFunctionData({ abi, functionName, args }),
    label,
    ...(value !== undefined && { value }),
  });
  const market = (functionName: string, args: readonly unknown[], value?: bigint) =>
    to(WORLD_MARKETPLACE.address, marketAbi, functionName, args, `marketplace.${functionName} from ${step.from}`, value);
  switch (step.action) {
    case 'deploy':
      return create2Call(WORLD_MARKETPLACE);
    case 'set-royalty':
      return market('setRoyalty', [worldContract(step.collection).address, step.receiver, step.bps]);
    case 'approve-collection': {
      const { address, artifact, id } = worldContract(step.collection);
      return to(address, artifact.abi, 'setApprovalForAll', [WORLD_MARKETPLACE.address, true], `${id}.setApprovalForAll from ${step.from}`);
    }
    case 'approve-currency':
      return to(
        worldContract(step.token).address,
        erc20Abi,
        'approve',
        [WORLD_MARKETPLACE.address, MARKET_ALLOWANCE],
        `${step.token}.approve from ${step.from}`,
      );
    case 'list':
      return market('list', [worldContract(step.collection).address, step.tokenId, step.quantity, currencyAddress(step.currency), step.unitPrice]);
    case 'cancel':
      return market('cancel', [step.listing]);
    case 'buy': {
      const listing = listingsById.get(step.listing)!;
      return market('buy', [step.listing, step.quantity], listing.currency === 'native' ? listing.unitPrice * step.quantity : undefined);
    }
    case 'transfer': {
      const { address, artifact, id } = worldContract(step.collection);
      return to(address, artifact.abi, 'transferFrom', [step.from, step.to, step.tokenId], `${id}.transferFrom from ${step.from}`);
    }
  }
}
