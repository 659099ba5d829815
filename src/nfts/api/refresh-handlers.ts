import { getAddress } from 'viem';
import { CrucibleError } from '../../errors/crucible-error.ts';
import { markRecordsDue, requestReingestion } from '../metadata/reingestions.ts';
import type { NftApiContext } from './api-context.ts';
import { contractTokenCount } from './collection-reads.ts';
import { indexedTokenKind } from './index-reads.ts';
import { decimalTokenId, type ContractQuery, type RefreshNftBody } from './params.ts';
import type { ReingestionBody, TokenRefreshBody } from './list-schemas.ts';

// Metadata fetched again on request (docs/nft-data.md#refresh-and-reingest): a token's
// (refreshNftMetadata) or a whole contract's (reingestContract), queued to the metadata worker,
// which fetches them on its next pass in whichever process runs it. getNFTMetadata with
// refreshCache=true fetches one token at once instead.

export function refreshHandlers(context: NftApiContext) {
  const { network, db } = context;

  const refreshNftMetadata = async (body: RefreshNftBody): Promise<TokenRefreshBody> => {
    await context.indexed();
    const contract = getAddress(body.contractAddress);
    const tokenId = decimalTokenId(body.tokenId);
    if (!(await indexedTokenKind(db, network, contract, tokenId)))
      throw new CrucibleError('not_found', `No transfer of token ${tokenId} of contract ${contract} is indexed on network ${network}.`);
    // A token without a record yet is fetched by the worker's next pass anyway.
    await markRecordsDue(db, network, contract, [tokenId]);
    return { contractAddress: contract, tokenId, refreshState: 'queued' };
  };

  const reingestContract = async (query: ContractQuery): Promise<ReingestionBody> => {
    await context.indexed();
    const contract = getAddress(query.contractAddress);
    const tokens = await contractTokenCount(db, network, contract);
    const reingestion = await requestReingestion(db, { network, contract, tokens, now: context.now() });
    return { contractAddress: contract, reingestionState: reingestion.state, progress: reingestion.progress };
  };

  return { refreshNftMetadata, reingestContract };
}
