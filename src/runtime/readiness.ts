import { sql } from 'kysely';
import type { Database } from '../db/open.ts';
import { redactUrls } from '../log/redact.ts';
import type { UpstreamPool } from '../node/upstreams/upstream-pool.ts';

// GET /readyz (docs/operating-at-scale.md#health): may a load balancer send this process traffic?
// Each part it stands on is asked once, at once: the database, Redis when REDIS_URL is set, and
// each network's upstreams in use (configured ones, and local devnets once started: asking a
// devnet not yet started would start it).

interface ReadinessCheck {
  /** `database`, `redis`, or `upstream:<network>`. */
  part: string;
  ok: boolean;
  /** Why it failed. */
  error?: string;
}

export interface Readiness {
  ready: boolean;
  checks: ReadinessCheck[];
}

export function createReadiness(parts: {
  database: Database;
  pingRedis: (() => Promise<void>) | null;
  pools: ReadonlyMap<string, UpstreamPool>;
  upstreamsInUse(): string[];
}): () => Promise<Readiness> {
  const check = async (part: string, probe: () => Promise<void>): Promise<ReadinessCheck> => {
    try {
      await probe();
      return { part, ok: true };
    } catch (error) {
      return { part, ok: false, error: redactUrls(error instanceof Error ? error.message : String(error)) };
    }
  };
  return async () => {
    const checks = await Promise.all([
      check('database', async () => void (await sql`select 1`.execute(parts.database.db))),
      ...(parts.pingRedis ? [check('redis', parts.pingRedis)] : []),
      ...parts.upstreamsInUse().map((network) =>
        check(`upstream:${network}`, async () => {
          if ((await parts.pools.get(network)?.head()) == null) throw new Error('no upstream answers');
        }),
      ),
    ]);
    return { ready: checks.every((entry) => entry.ok), checks };
  };
}
