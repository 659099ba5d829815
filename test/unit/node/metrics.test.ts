import { describe, expect, it } from 'vitest';
import { createNodeMetrics } from '../../../src/node/metrics.ts';

describe('createNodeMetrics', () => {
  it('counts a report of several calls alike (notifications charged together) as that many calls and their compute units', async () => {
    const metrics = createNodeMetrics(new Map());
    metrics.observeCall({ network: 'base-sepolia', method: 'eth_subscription', computeUnits: 40, errorCode: null, calls: 4 });
    metrics.observeCall({ network: 'base-sepolia', method: 'eth_subscription', computeUnits: 10, errorCode: null });
    const text = await metrics.registry.metrics();
    expect(text).toContain('crucible_node_calls_total{network="base-sepolia",method="eth_subscription",outcome="ok"} 5');
    expect(text).toContain('crucible_node_compute_units_total{network="base-sepolia",method="eth_subscription"} 50');
  });
});
