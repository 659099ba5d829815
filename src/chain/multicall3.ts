import type { Address } from 'viem';

/** Multicall3's address on every chain it is deployed to (github.com/mds1/multicall): a fact of public chains, which the local world copies. */
export const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';
