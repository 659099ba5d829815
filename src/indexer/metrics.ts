import { Counter, Gauge, type Registry } from 'prom-client';
import type { NetworkProgress } from './indexer.ts';

// The indexer's Prometheus metrics (docs/hosts-and-paths.md#metrics), read from its progress when scraped: per network
// the head and indexed block this process last saw as leader, the lag between them, whether it
// leads, and the transfers, reorgs and resets it handled since it started.

type Read = (network: NetworkProgress) => number | null;

export function registerIndexerMetrics(registry: Registry, indexer: { progress(): NetworkProgress[] }): void {
  // Each metric is set at scrape time from the progress; counters count this process's totals.
  const perNetwork = <M extends Gauge | Counter>(
    name: string,
    help: string,
    read: Read,
    record: (metric: M, labels: { network: string }, value: number) => void,
  ) => ({
    name,
    help,
    labelNames: ['network'],
    registers: [registry],
    collect(this: M) {
      this.reset();
      for (const network of indexer.progress()) {
        const value = read(network);
        if (value !== null) record(this, { network: network.network }, value);
      }
    },
  });
  const gauge = (name: string, help: string, read: Read) =>
    new Gauge(perNetwork<Gauge>(name, help, read, (metric, labels, value) => metric.set(labels, value)));
  const counter = (name: string, help: string, read: Read) =>
    new Counter(perNetwork<Counter>(name, help, read, (metric, labels, value) => metric.inc(labels, value)));
  const led =
    (read: Read): Read =>
    (network) =>
      network.leading ? read(network) : null;
  gauge('crucible_indexer_leader', '1 when this process leads the network’s indexing, else 0.', (network) => (network.leading ? 1 : 0));
  gauge(
    'crucible_indexer_head_block',
    'Chain head last seen by this process as leader.',
    led((network) => network.head),
  );
  gauge(
    'crucible_indexer_indexed_block',
    'Last block in the transfer index, as this process last wrote it.',
    led((network) => network.indexedBlock),
  );
  gauge(
    'crucible_indexer_lag_blocks',
    'Blocks between the head and the last indexed block.',
    led((network) => (network.head === null || network.indexedBlock === null ? null : Math.max(0, network.head - network.indexedBlock))),
  );
  counter('crucible_indexer_transfers_ingested_total', 'Transfers this process stored.', (network) => network.transfersIngested);
  counter('crucible_indexer_reorgs_total', 'Reorgs this process rolled back.', (network) => network.reorgs);
  counter(
    'crucible_indexer_resets_total',
    'Times this process dropped a network’s index to rebuild it (a chain reset, or a reorg deeper than the window).',
    (network) => network.resets,
  );
}
