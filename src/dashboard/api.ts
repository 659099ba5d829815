import type { AccountStore } from '../accounts/store.ts';
import type { SessionStore } from '../accounts/sessions.ts';
import type { AttemptLimits } from '../accounts/attempt-limits.ts';
import type { AppStore } from '../apps/store.ts';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import type { AccountTokens } from '../accounts/auth-tokens.ts';

// What the dashboard's operations stand on (src/runtime/dashboard-services.ts builds it for the server).

/** A network an app may use, and where its node answers (docs/hosts-and-paths.md#node-url). */
export interface DashboardNetwork {
  id: string;
  name: string;
  /** `{node_url}`. */
  nodeUrl: string;
}

export interface DashboardApi {
  accounts: AccountStore;
  sessions: SessionStore;
  /** Sign-ins per email and client IP and per client IP, sign-ups per client IP. */
  attemptLimits: AttemptLimits;
  apps: AppStore;
  /** The most apps one account may create here (DASHBOARD_APPS_PER_ACCOUNT). */
  maxAppsPerAccount: number;
  tokens: Pick<AccountTokens, 'create' | 'list' | 'revoke'>;
  /** Where the usage meter stores its sums. */
  db: Kysely<DatabaseSchema>;
  networks: readonly DashboardNetwork[];
  /** The site's origin: a state change whose Origin is another is refused. */
  siteOrigin: string;
  /** Outside local mode: `Secure` cookies with `__Host-` names. */
  secureCookies: boolean;
  /**
   * Called after a key is rotated, an app's state changes or an app is deleted: the gateway forgets
   * the keys it remembers for a second (src/admission/callers.ts), so this process refuses the old key at once.
   */
  keysChanged?(): void;
  now?: () => number;
}
