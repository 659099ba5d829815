import type { Address, Hash } from 'viem';

// What the node gateway benchmark sends: one JSON-RPC body per workload, the same bytes to anvil
// and to the gateway. Uncached calls go through to anvil on both sides; the receipt of a mined
// transaction is answered from the gateway's cache of immutable answers after its first call.

export interface Workload {
  name: string;
  description: string;
  body: string;
  /** The gateway answers it from its cache (target: ≥ 3× direct), else from anvil (≥ 0.7). */
  cached: boolean;
}

const call = (id: number, method: string, params: unknown[]) => ({ jsonrpc: '2.0', id, method, params });

/** Addresses anvil funds at genesis (its dev accounts 0, 2, 3). */
const devAccounts: Address[] = [
  '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
];

export function workloadsFor(chain: { receiptHash: Hash; account: Address }): Workload[] {
  const accounts = [chain.account, ...devAccounts];
  const batch = [
    call(1, 'eth_blockNumber', []),
    ...accounts.map((address, i) => call(2 + i, 'eth_getBalance', [address, 'latest'])),
    ...accounts.slice(0, 3).map((address, i) => call(6 + i, 'eth_getTransactionCount', [address, 'latest'])),
    call(9, 'eth_gasPrice', []),
    call(10, 'eth_getCode', [chain.account, 'latest']),
  ];
  return [
    { name: 'eth_blockNumber', description: 'one call', body: JSON.stringify(call(1, 'eth_blockNumber', [])), cached: false },
    {
      name: 'eth_getBalance',
      description: "a funded account at 'latest'",
      body: JSON.stringify(call(1, 'eth_getBalance', [chain.account, 'latest'])),
      cached: false,
    },
    {
      name: '10-call batch',
      description: "eth_blockNumber, 4 eth_getBalance, 3 eth_getTransactionCount at 'latest', eth_gasPrice, eth_getCode: one upstream batch",
      body: JSON.stringify(batch),
      cached: false,
    },
    {
      name: 'eth_getTransactionReceipt (cached)',
      description: 'of a mined transfer',
      body: JSON.stringify(call(1, 'eth_getTransactionReceipt', [chain.receiptHash])),
      cached: true,
    },
  ];
}
