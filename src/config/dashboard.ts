import type { z } from 'zod';
import type { Env } from './env.ts';
import { wholeNumber } from './numbers.ts';
import { readConfigVariable } from './variable.ts';

// The dashboard's accounts and their limits (docs/dashboard.md#sign-in-limits), validated; a bad value stops start-up
// with a message naming the variable. Every variable is listed in .env.example; src/accounts/README.md
// says why each limit is what it is.

/** N attempts per W seconds (src/accounts/attempt-limits.ts turns it into a token bucket). */
interface AttemptLimitConfig {
  attempts: number;
  windowSeconds: number;
}

export interface DashboardConfig {
  /** DASHBOARD_SIGN_UPS_PER_IP per DASHBOARD_SIGN_UP_WINDOW_SECONDS (default 10 per 3600): sign-ups from one client IP, counted before any hashing. */
  signUpsPerIp: AttemptLimitConfig;
  /** DASHBOARD_SIGN_INS_PER_EMAIL_AND_IP per DASHBOARD_SIGN_IN_WINDOW_SECONDS (default 10 per 900): sign-ins of one email from one client IP. */
  signInsPerEmailAndIp: AttemptLimitConfig;
  /** DASHBOARD_SIGN_INS_PER_IP per DASHBOARD_SIGN_IN_WINDOW_SECONDS (default 50 per 900): sign-ins from one client IP, whatever the email. */
  signInsPerIp: AttemptLimitConfig;
  /** DASHBOARD_APPS_PER_ACCOUNT (default 20): the most apps one account may create in the dashboard. */
  appsPerAccount: number;
  /** DASHBOARD_SCRYPT_CONCURRENCY (default 2): password hashes computed at once, 128 MiB each. */
  scryptConcurrency: number;
  /** DASHBOARD_SCRYPT_QUEUE (default 20): password hashes that may wait for one of those; more are refused (503). */
  scryptQueue: number;
}

// Attempts × window stays far below the buckets' bound of 10^9 (src/limits/input.ts).
const attempts = wholeNumber({ min: 1, max: 1000 });
const windowSeconds = wholeNumber({ min: 1, max: 86_400 });

const read = <T>(env: Env, name: string, schema: z.ZodType<T, string>, fallback: T): T => readConfigVariable(env, 'dashboard', name, schema, fallback);

export function readDashboardConfig(env: Env): DashboardConfig {
  const signInWindow = read(env, 'DASHBOARD_SIGN_IN_WINDOW_SECONDS', windowSeconds, 900);
  return {
    signUpsPerIp: {
      attempts: read(env, 'DASHBOARD_SIGN_UPS_PER_IP', attempts, 10),
      windowSeconds: read(env, 'DASHBOARD_SIGN_UP_WINDOW_SECONDS', windowSeconds, 3600),
    },
    signInsPerEmailAndIp: { attempts: read(env, 'DASHBOARD_SIGN_INS_PER_EMAIL_AND_IP', attempts, 10), windowSeconds: signInWindow },
    signInsPerIp: { attempts: read(env, 'DASHBOARD_SIGN_INS_PER_IP', attempts, 50), windowSeconds: signInWindow },
    appsPerAccount: read(env, 'DASHBOARD_APPS_PER_ACCOUNT', wholeNumber({ min: 1, max: 10_000 }), 20),
    scryptConcurrency: read(env, 'DASHBOARD_SCRYPT_CONCURRENCY', wholeNumber({ min: 1, max: 64 }), 2),
    scryptQueue: read(env, 'DASHBOARD_SCRYPT_QUEUE', wholeNumber({ min: 0, max: 10_000 }), 20),
  };
}
