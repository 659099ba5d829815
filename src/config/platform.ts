import { z } from 'zod';
import type { Env } from './env.ts';
import { readConfigVariable } from './variable.ts';

// The platform's mode, which every part reads (docs/hosts-and-paths.md#local-mode-and-production-mode).
// `local`, the default, runs on this machine alone: devnets signed with anvil's published keys, a
// development CAPTCHA, the demo key for anyone, NFT fetches and webhook URLs that may reach this
// machine; it refuses what only production may use. `production` refuses what only local mode may use.

export type PlatformMode = 'local' | 'production';

export interface PlatformConfig {
  mode: PlatformMode;
  /** Settings read under an old name, for the start-up log. */
  warnings: string[];
}

const modeSetting = z.enum(['local', 'production'], { error: 'must be "local" or "production"' });

/** CRUCIBLE_MODE; FAUCET_MODE, its name before it was the whole platform's, is still read with a warning. */
export function readPlatformConfig(env: Env): PlatformConfig {
  const mode = readConfigVariable<PlatformMode | undefined>(env, 'platform', 'CRUCIBLE_MODE', modeSetting, undefined);
  const formerMode = readConfigVariable<PlatformMode | undefined>(env, 'platform', 'FAUCET_MODE', modeSetting, undefined);
  if (formerMode === undefined) return { mode: mode ?? 'local', warnings: [] };
  if (mode !== undefined) return { mode, warnings: [`FAUCET_MODE is no longer read: CRUCIBLE_MODE=${mode} applies.`] };
  return {
    mode: formerMode,
    warnings: [
      `FAUCET_MODE is renamed CRUCIBLE_MODE (the mode is the whole platform's): FAUCET_MODE=${formerMode} is read as CRUCIBLE_MODE=${formerMode}; set CRUCIBLE_MODE instead.`,
    ],
  };
}
