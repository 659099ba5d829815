import { randomBytes } from 'node:crypto';

// A dashboard account (docs/dashboard.md#accounts). Its id is the owner id of its apps, auth tokens and webhooks.

export interface Account {
  /** `acc_` and 16 hex digits. */
  id: string;
  /** Trimmed and lowercased. */
  email: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
}

export function newAccountId(): string {
  return `acc_${randomBytes(8).toString('hex')}`;
}

/** How emails are compared and stored: `  Ada@Example.COM ` is `ada@example.com`. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
