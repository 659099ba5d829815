/**
 * The network the docs' examples, the dashboard's first steps and the NFT gallery call: every
 * local devnet carries the same world, and this is the one the faucet suggests
 * (content/networks/ethereum-sepolia.yaml). Any network answers the same way.
 */
export const EXAMPLE_NETWORK = 'ethereum-sepolia';
