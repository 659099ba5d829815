import { getAddress } from 'viem';
import { CrucibleError } from '../../errors/crucible-error.ts';
import { recordSpamReport, reporterOf } from '../contracts/spam-reports.ts';
import type { NftApiContext } from './api-context.ts';
import { mintRecipients } from './collection-reads.ts';
import { indexedContractKind, indexedTokenKind, mintsOf } from './index-reads.ts';
import { decimalTokenId, type ContractQuery, type TokenQuery } from './params.ts';
import type { SpamReportReceiptBody } from './list-schemas.ts';

// Spam of one network (docs/nft-data.md#spam-rules): a contract's verdict and the network's spam
// contracts from the spam rules, a token's airdrop verdict from its mint, and the reports callers
// send, recorded for the operator and never trusted by themselves.

/** Who called, as the door tells the handlers that record something per caller. */
export interface CallerOfRequest {
  appId: string | null;
  clientIp: string | null;
}

export function spamHandlers(context: NftApiContext) {
  const { network, db } = context;

  const isSpamContract = async (query: ContractQuery): Promise<{ isSpamContract: boolean }> => {
    await context.indexed();
    const contract = getAddress(query.contractAddress);
    const facts = await context.contracts.contractsOf(network, [contract]);
    return { isSpamContract: facts.get(contract.toLowerCase())?.isSpam === true };
  };

  const spamContracts = async (): Promise<{ contractAddresses: string[] }> => {
    await context.indexed();
    const { addresses, facts } = await context.indexedContractFacts();
    return { contractAddresses: addresses.filter((address) => facts.get(address.toLowerCase())?.isSpam === true) };
  };

  /** Minted to its first holder in a transaction that minted the contract's tokens to at least NFT_SPAM_AIRDROP_MIN_RECIPIENTS addresses. */
  const isAirdropNft = async (query: TokenQuery): Promise<{ isAirdrop: boolean }> => {
    await context.indexed();
    const contract = getAddress(query.contractAddress);
    const tokenId = decimalTokenId(query.tokenId);
    if (!(await indexedTokenKind(db, network, contract, tokenId)))
      throw new CrucibleError('not_found', `No transfer of token ${tokenId} of contract ${contract} is indexed on network ${network}.`);
    const mint = (await mintsOf(db, network, [{ contract, tokenId }])).get(`${contract.toLowerCase()}:${tokenId}`);
    if (!mint) return { isAirdrop: false };
    return { isAirdrop: (await mintRecipients(db, network, contract, mint)) >= context.airdropMinRecipients };
  };

  /** Recorded when the index holds NFTs of the contract (others are not recorded, so reports cannot fill the table with any address). */
  const reportSpam = async (query: ContractQuery, caller: CallerOfRequest): Promise<SpamReportReceiptBody> => {
    await context.indexed();
    const contract = getAddress(query.contractAddress);
    if (!(await indexedContractKind(db, network, contract)))
      return { contractAddress: contract, recorded: false, message: `No NFT of contract ${contract} is indexed on network ${network}: nothing recorded.` };
    await recordSpamReport(db, { network, contract, reporter: reporterOf(caller, context.ipv6PrefixLength), at: context.now() });
    return {
      contractAddress: contract,
      recorded: true,
      message: "Recorded for the operator. A report does not change the contract's isSpam, which the spam rules decide.",
    };
  };

  return { isSpamContract, spamContracts, isAirdropNft, reportSpam };
}
