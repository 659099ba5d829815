import { erc1155UriId } from '../erc1155-uri.ts';
import { WORLD_HISTORY, type HostedCollectionId } from './history.ts';

// The world's hosted NFT metadata: JSON documents and images under public/world/nft/<collection>/,
// which the site serves at <siteOrigin>/world/nft/<collection>/. The collections' base URIs point
// there, so they follow the site's origin (deployWorld sets them at every start).
// A document's `image` is relative to the document (`1.svg`): static files cannot know the origin
// they are served from, so a reader resolves it against the token URI (new URL(image, tokenUri)).

export const HOSTED_COLLECTIONS: readonly HostedCollectionId[] = ['relics', 'materials', 'airdrop'];

/** RelicCollection.FIRST_ONCHAIN_ID: relics from this id on carry data: URIs instead of hosted metadata. */
export const RELIC_FIRST_ONCHAIN_ID = 100n;

/** Where the site serves the world's hosted documents (public/world/nft/). */
export const WORLD_DOCUMENTS_PATH = '/world/nft/';

/** The base URI a hosted collection is given on a devnet served by the site at `siteOrigin`. */
export function worldBaseUri(siteOrigin: string, collection: HostedCollectionId): string {
  return `${new URL(siteOrigin).origin}${WORLD_DOCUMENTS_PATH}${collection}/`;
}

/** The metadata documents the site must serve, relative to /world/nft/: one per hosted token (the airdrop's tokens share one). */
export function hostedMetadataDocuments(): string[] {
  const documents = new Set<string>(['airdrop/pass.json']);
  for (const step of WORLD_HISTORY.flat()) {
    if (step.action === 'relic-mint') for (const id of step.ids) if (id < RELIC_FIRST_ONCHAIN_ID) documents.add(`relics/${id}.json`);
    if (step.action === 'material-mint') for (const id of step.ids) documents.add(`materials/${erc1155UriId(id)}.json`);
  }
  return [...documents].sort();
}
