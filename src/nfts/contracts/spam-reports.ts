import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.ts';
import { ipBucketOf } from '../../http/ip-bucket.ts';

// Spam reports (docs/nft-data.md#spam-reports): what callers of reportSpam say of a contract,
// recorded for the operator (`npx crucible nfts spam-reports`), never trusted by themselves. One
// row per reporter and contract: a reporter who says it again raises its count, not the number of
// reporters. A report changes no answer: isSpam comes from the spam rules alone.

/** Who reported: an app by its id, the demo key by the client's address (an IPv6 one by its prefix, as the demo key's limits count it). */
export function reporterOf(caller: { appId: string | null; clientIp: string | null }, ipv6PrefixLength: number): string {
  return caller.appId !== null ? `app:${caller.appId}` : `demo:${ipBucketOf(caller.clientIp, ipv6PrefixLength)}`;
}

export async function recordSpamReport(db: Kysely<DatabaseSchema>, report: { network: string; contract: string; reporter: string; at: number }): Promise<void> {
  await db
    .insertInto('nft_spam_reports')
    .values({
      network: report.network,
      contract: report.contract.toLowerCase(),
      reporter: report.reporter,
      reports: 1,
      first_reported_at: report.at,
      last_reported_at: report.at,
    })
    .onConflict((conflict) =>
      conflict.columns(['network', 'contract', 'reporter']).doUpdateSet({ reports: sql`nft_spam_reports.reports + 1`, last_reported_at: report.at }),
    )
    .execute();
}

/** One reported contract as the operator sees it. */
export interface ReportedContract {
  network: string;
  /** Lowercase. */
  contract: string;
  /** Distinct reporters. */
  reporters: number;
  /** Reports in all, repeats included. */
  reports: number;
  firstReportedAt: number;
  lastReportedAt: number;
  /** Up to 10 reporters, those who reported last first. */
  latestReporters: string[];
}

/** Reported contracts, most reporters first; only `network`'s when given. */
export async function listSpamReports(db: Kysely<DatabaseSchema>, options: { network?: string } = {}): Promise<ReportedContract[]> {
  let query = db
    .selectFrom('nft_spam_reports')
    .select([
      'network',
      'contract',
      sql<number | string>`count(*)`.as('reporters'),
      sql<number | string>`sum(reports)`.as('reports'),
      sql<number | string>`min(first_reported_at)`.as('first'),
      sql<number | string>`max(last_reported_at)`.as('last'),
    ])
    .groupBy(['network', 'contract']);
  if (options.network) query = query.where('network', '=', options.network);
  const rows = await query.execute();
  const listed: ReportedContract[] = [];
  for (const row of rows) {
    const latest = await db
      .selectFrom('nft_spam_reports')
      .select('reporter')
      .where('network', '=', row.network)
      .where('contract', '=', row.contract)
      .orderBy('last_reported_at', 'desc')
      .limit(10)
      .execute();
    listed.push({
      network: row.network,
      contract: row.contract,
      reporters: Number(row.reporters),
      reports: Number(row.reports),
      firstReportedAt: Number(row.first),
      lastReportedAt: Number(row.last),
      latestReporters: latest.map((entry) => entry.reporter),
    });
  }
  return listed.sort((a, b) => b.reporters - a.reporters || b.lastReportedAt - a.lastReportedAt);
}
