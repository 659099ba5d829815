import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

// `.env` (see .env.example), read by `npm start`, the build and `astro dev` (astro.config.mjs)
// and the server entry before they read any variable.

/**
 * Loads `<dir>/.env` into process.env when there is one. A variable already set in the real
 * environment, even to an empty value, wins: process.loadEnvFile never overwrites one, so
 * loading the same file again changes nothing.
 */
export function loadDotEnv(dir: string = process.cwd()): void {
  const file = resolve(dir, '.env');
  if (existsSync(file)) process.loadEnvFile(file);
}
