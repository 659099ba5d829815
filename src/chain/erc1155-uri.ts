import { toHex } from 'viem';

// EIP-1155 metadata URIs: a client replaces every `{id}` with the token id as 64 lowercase hex
// digits, zero-padded, without 0x.

/** The token id as EIP-1155 writes it into a URI. */
export function erc1155UriId(tokenId: bigint): string {
  return toHex(tokenId, { size: 32 }).slice(2);
}

/** `uri` with every `{id}` replaced by the token id. */
export function substituteTokenId(uri: string, tokenId: bigint): string {
  return uri.includes('{id}') ? uri.replaceAll('{id}', erc1155UriId(tokenId)) : uri;
}
